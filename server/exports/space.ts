/**
 * Room for a download in its reader's storage quota. A build is never refused while older
 * downloads can make room: asking for one reserves an estimate of its size (the book's audio, the
 * covers its tags carry), and when that would take the reader past the quota their oldest kept
 * downloads are evicted (rows and files), to be built again when asked for. Only when evicting
 * every kept download is not enough is the build refused (413), with the estimate in words. All of
 * it runs in one transaction under the reader's storage lock (../jobs/quotas.ts), so a refusal
 * evicts nothing.
 */
import { DomainError } from '../errors';
import { formatBytes, type Quotas } from '../jobs/quotas';
import { coverJpegKey } from '../jobs/storage-keys';
import type { FileStorage } from '../storage/types';
import type { ExportBook } from '../books/source';
import { exportsTable, type ExportFormat, type ExportRecord, type ExportRequest } from './repository';

/** Room for the parts of a download besides the audio: its text and timings (EPUB), playlist and zip entries. */
const EXTRA_SHARE = 0.05;
/** A cover not made yet (its JPEG, at most 1400 pixels a side), and the rest of an ID3 tag. */
const COVER_ALLOWANCE_BYTES = 512 * 1024;
const TAG_BYTES = 4096;

/** About how many bytes `format` of the book takes: its audio, and the cover in each tag. */
export async function estimateExportBytes(storage: FileStorage, book: ExportBook, format: ExportFormat) {
  const audio = (await storage.stat(book.audioKey))?.size ?? 0;
  const cover = (await storage.stat(coverJpegKey(book.id)))?.size ?? COVER_ALLOWANCE_BYTES;
  // A ZIP tags every chapter's MP3 with the cover, and keeps it once more beside them.
  const covers = format === 'zip' ? book.chapters.length + 1 : 1;
  return Math.ceil(audio * (1 + EXTRA_SHARE)) + covers * (cover + TAG_BYTES);
}

export interface ReservedExport {
  record: ExportRecord;
  /** A new build was queued (its message is to be sent). */
  queued: boolean;
  /** Files to delete now that the transaction committed: a stale build's and evicted downloads'. */
  freedKeys: string[];
}

function noRoom(needBytes: number, leftBytes: number): DomainError {
  const room = leftBytes > 0 ? `you have ${formatBytes(leftBytes)} left` : 'you have no space left';
  return new DomainError(
    'quota_exceeded',
    `This download needs about ${formatBytes(needBytes)}; ${room} even without your other downloads. Delete books you no longer need to make room`,
  );
}

/** Asks for a build of the request's format, making room for it as described above. */
export function reserveExport(
  quotas: Pick<Quotas, 'withStorageLock'>,
  request: ExportRequest,
): Promise<ReservedExport> {
  return quotas.withStorageLock(request.userId, async (x, room) => {
    const table = exportsTable(x);
    const asked = await table.request(request);
    const stale = asked.staleFileKey === null ? [] : [asked.staleFileKey];
    if (!asked.queued) return { record: asked.record, queued: false, freedKeys: stale };
    const over = -(await room());
    const evicted = over > 0 ? await table.evict(request.userId, asked.record.id, over) : [];
    const freed = evicted.reduce((sum, e) => sum + e.sizeBytes, 0);
    if (freed < over) throw noRoom(request.reservedBytes, request.reservedBytes - (over - freed));
    const keys = evicted.map((e) => e.fileKey).filter((k): k is string => k !== null);
    return { record: asked.record, queued: true, freedKeys: [...stale, ...keys] };
  });
}
