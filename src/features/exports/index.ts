export { DownloadDialog, DownloadMenu } from './DownloadMenu';
