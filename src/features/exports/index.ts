export { DownloadDialog, DownloadMenu } from './DownloadMenu';
export { PodcastFeedButton, PodcastFeedDialog, type PodcastFeedDialogProps } from './PodcastFeedDialog';
