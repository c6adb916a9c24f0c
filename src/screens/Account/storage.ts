/**
 * The account page's storage figures, in the words a reader reads: "12 MB of 2 GB used", and how
 * full it is (docs/operations.md#storage-quota).
 */

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** From this share of the quota on, the page warns that the storage is nearly full. */
export const NEARLY_FULL_SHARE = 0.9;

export type StorageLevel = 'plenty' | 'nearlyFull' | 'full';

/** One decimal under ten, whole numbers above, no trailing ".0": "2 GB", "1.5 GB", "12 MB". */
function amount(value: number): string {
  return value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

/** A size as the page says it: "0 MB", "850 KB", "12 MB", "1.5 GB". */
export function formatStorage(bytes: number): string {
  if (!(bytes > 0)) return '0 MB';
  if (bytes >= GB) return `${amount(bytes / GB)} GB`;
  if (bytes >= MB) return `${amount(bytes / MB)} MB`;
  return `${Math.max(1, Math.round(bytes / KB))} KB`;
}

export interface StorageFigures {
  /** "12 MB of 2 GB used". */
  summary: string;
  /** "1.9 GB left", or "No space left". */
  left: string;
  /** 0 to 100, for the meter. */
  percent: number;
  level: StorageLevel;
}

export function storageFigures(usedBytes: number, quotaBytes: number): StorageFigures {
  const share = quotaBytes > 0 ? usedBytes / quotaBytes : 1;
  const leftBytes = Math.max(0, quotaBytes - usedBytes);
  return {
    summary: `${formatStorage(usedBytes)} of ${formatStorage(quotaBytes)} used`,
    left: leftBytes > 0 ? `${formatStorage(leftBytes)} left` : 'No space left',
    percent: Math.min(100, Math.max(0, Math.round(share * 100))),
    level: share >= 1 ? 'full' : share >= NEARLY_FULL_SHARE ? 'nearlyFull' : 'plenty',
  };
}
