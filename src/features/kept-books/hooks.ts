import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { cancelKeeping, dismissKeepFailure, keepBook, removeBook } from './actions';
import { acceptOffer, declineOffer } from './queue';
import { seedReadAlong } from './readAlong';
import { kept } from './state';
import { watchKeptBooks } from './watch';

/** The kept books and the downloads under way, for rendering (re-renders on change). */
export function useKeptBooks() {
  return useSnapshot(kept);
}

/** One book on this device: whether it is kept, its download, and what the reader can do. */
export function useKeptBook(jobId: string) {
  const client = useQueryClient();
  const snapshot = useSnapshot(kept);
  return {
    book: snapshot.books[jobId] ?? null,
    download: snapshot.downloads[jobId] ?? null,
    keep: () => void keepBook(client, jobId),
    remove: () => void removeBook(jobId),
    cancel: () => cancelKeeping(jobId),
    dismissFailure: () => dismissKeepFailure(jobId),
  };
}

/** A kept book's read-along goes into the data cache, for the book page's read-along. */
export function useKeptReadAlong(jobId: string): void {
  const client = useQueryClient();
  const book = useSnapshot(kept).books[jobId];
  useEffect(() => {
    if (book) void seedReadAlong(client, book);
  }, [client, book]);
}

/**
 * A newer place on the server for `jobId` (another device's), and the two answers to it:
 * `take` lets it win (resolves the place to play from), `keepHere` sends this device's place.
 */
export function usePlaceOffer(jobId: string) {
  const client = useQueryClient();
  const offer = useSnapshot(kept).offers[jobId] ?? null;
  return {
    offer,
    take: () => acceptOffer(client, jobId),
    keepHere: () => void declineOffer(client, jobId),
  };
}

/** Sends unsent places and keeps kept places current for as long as the caller is mounted. */
export function useWatchKeptBooks(): void {
  const client = useQueryClient();
  useEffect(() => watchKeptBooks(client), [client]);
}
