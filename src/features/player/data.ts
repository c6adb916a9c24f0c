import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import {
  getAudioMetadata,
  getAudioStream,
  getGetAudioMetadataQueryKey,
  getGetAudioStreamQueryKey,
} from '../../api/gen/endpoints/audio';
import { isChapterPlayable } from './chapters';
import { CONVERTING_POLL_MS } from './settings';
import { isReady, runtime, state } from './store';

/**
 * The loaded book's server data, kept in React Query only: its metadata (chapters, duration, title)
 * and the stream answers (signed URLs) of the files the element plays. The player reads them from
 * the cache the app hands it once (attachPlayer, store.ts, from the component that provides the cache);
 * screens read the same entries through usePlayerMetadata. A test hands in its own.
 */

/** The book's metadata as the API answers it. */
export type BookMetadata = Awaited<ReturnType<typeof getAudioMetadata>>;

export function playerCache(): QueryClient {
  const attached = runtime.queryClient;
  if (!attached) throw new Error('The player has no data cache yet: attachPlayer hands it one');
  return attached;
}

/** The metadata query: asked once per load (and again when a converting book's chapter ends). */
const metadataQuery = (jobId: string) => ({
  queryKey: getGetAudioMetadataQueryKey(jobId),
  queryFn: () => getAudioMetadata(jobId),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: false,
});

/** Asks for a book's metadata now (a fresh answer replaces the cached one). */
export function fetchMetadata(jobId: string): Promise<BookMetadata> {
  return playerCache().fetchQuery({ ...metadataQuery(jobId), staleTime: 0 });
}

/** The cached metadata of the loaded book, or null. */
export function loadedMetadata(): BookMetadata | null {
  const jobId = state.currentJobId;
  if (!jobId) return null;
  return runtime.queryClient?.getQueryData<BookMetadata>(getGetAudioMetadataQueryKey(jobId)) ?? null;
}

/** Asks for a fresh signed URL of `id`'s audio (a book, or one of its chapters); cached for the element. */
export async function fetchStream(id: string): Promise<{ url: string | null; sourceJobId: string | null }> {
  const stream = await playerCache().fetchQuery({
    queryKey: getGetAudioStreamQueryKey(id),
    queryFn: () => getAudioStream(id),
    staleTime: 0,
    gcTime: Infinity,
    retry: false,
  });
  return { url: streamUrlOf(stream), sourceJobId: stream.source_job_id ?? null };
}

type StreamAnswer = Awaited<ReturnType<typeof getAudioStream>>;

function streamUrlOf(stream: StreamAnswer | undefined): string | null {
  // The earlier API spelled it streamingUrl.
  return stream?.streaming_url || (stream as { streamingUrl?: string } | undefined)?.streamingUrl || null;
}

/** The URL of the file the element plays (state.streamFrom), from the cache. */
export function loadedStreamUrl(): string | null {
  if (!state.streamFrom) return null;
  return streamUrlOf(runtime.queryClient?.getQueryData<StreamAnswer>(getGetAudioStreamQueryKey(state.streamFrom)));
}

/**
 * The loaded book's metadata for rendering: the cached answer the player loaded (asked again only
 * when this cache does not have it yet). Null while no book is ready.
 */
export function usePlayerMetadata(): BookMetadata | null {
  const snapshot = useSnapshot(state);
  const jobId = snapshot.currentJobId;
  const query = useQuery({ ...metadataQuery(jobId ?? ''), enabled: jobId !== null && isReady(snapshot) });
  return jobId ? (query.data ?? null) : null;
}

/** Something of the book can be played: a chapter, or the first chapter's opening. */
function hasPlayable(metadata: BookMetadata | undefined): boolean {
  return Boolean(metadata?.chapters.some(isChapterPlayable));
}

/**
 * Whether a book still converting, none of whose chapters is finished, can already be played:
 * its first chapter's opening (its first minutes, converted first) is ready. The metadata answers
 * 409 until something is playable; it is asked every few seconds while `enabled` and nothing is.
 * The answer is the one the player loads (the same cache entry).
 */
export function useOpeningPlayable(jobId: string, enabled: boolean): boolean {
  const query = useQuery({
    ...metadataQuery(jobId),
    staleTime: 0,
    enabled,
    refetchInterval: (q) => (enabled && !hasPlayable(q.state.data) ? CONVERTING_POLL_MS : false),
  });
  return enabled && hasPlayable(query.data);
}
