export { useBookExportActions } from './BookExportActions';
export { DownloadMenu } from './DownloadMenu';
export { PodcastFeedButton } from './PodcastFeedDialog';
