import type { PlaybackProgressOutput } from '../../api/gen/model';
import { isFinished, listenedPercent } from '../../entities/progress';
import { listeningStatus, type LibraryBook } from './books';

/*
 * The library without a connection: the books kept on this device, from their index. A module of
 * its own, so the first screens' chunk does not carry it (only the library screen reads it).
 */

/** What the device keeps of a book (its kept index): enough for the library without a connection. */
export interface KeptEntry {
  id: string;
  title: string;
  author: string | null;
  voice: string;
  duration: number;
  chapters: number;
  createdAt: string;
}

/**
 * The books kept on this device as the library shows them when it cannot ask the server: from
 * the kept index, with the saved places the page still holds. Every kept book is finished.
 */
export function keptLibraryBooks(
  entries: readonly KeptEntry[],
  records: readonly PlaybackProgressOutput[],
): LibraryBook[] {
  return entries.map((entry) => {
    const record = records.find((r) => r.job_id === entry.id);
    const position = record?.position_seconds ?? 0;
    const hasProgress = Boolean(record) && position > 0;
    const finished = isFinished(record, entry.duration);
    return {
      id: entry.id,
      title: entry.title,
      author: entry.author,
      createdAt: entry.createdAt,
      voice: entry.voice,
      chapters: entry.chapters,
      duration: entry.duration,
      progress: listenedPercent(record, entry.duration),
      position,
      hasProgress,
      finished,
      description: null,
      converting: null,
      status: listeningStatus(finished, hasProgress, entry.duration, position),
      kept: true,
    };
  });
}
