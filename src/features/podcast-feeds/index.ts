export { PodcastFeedButton, PodcastFeedDialog } from './PodcastFeedDialog';
