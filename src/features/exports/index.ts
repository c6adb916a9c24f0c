export { BookActionsMenu } from './BookActionsMenu';
export { DownloadMenu } from './DownloadMenu';
export { PodcastFeedButton } from './PodcastFeedDialog';
