import type { Export, ExportFormat } from '../../api/gen/model';

/** The download formats in the menu's order, with what each is for (docs/product.md#downloads). */
export const DOWNLOAD_FORMATS: readonly { format: ExportFormat; label: string; description: string }[] = [
  { format: 'm4b', label: 'M4B', description: 'Audiobook with chapters, for Apple Books and BookPlayer' },
  { format: 'mp3', label: 'MP3', description: 'The whole book in one file, with chapters' },
  { format: 'zip', label: 'ZIP', description: 'Each chapter as an MP3, with the cover and a playlist' },
  { format: 'epub', label: 'EPUB with read-along', description: 'The text follows the audio, for e-readers' },
];

/** A download still on its way: the list is asked again until it is not. */
export const isBuilding = (entry: Pick<Export, 'status'>) => entry.status === 'queued' || entry.status === 'building';

/** How often the list is asked again while a download is being built. */
export const EXPORT_POLL_MS = 1500;
