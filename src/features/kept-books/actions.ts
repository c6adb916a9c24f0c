import type { QueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../api/errors';
import {
  getAudioCover,
  getAudioMetadata,
  getAudioStream,
  getAudioTranscript,
  getGetAudioCoverUrl,
  getGetAudioMetadataUrl,
  getGetAudioStreamUrl,
} from '../../api/gen/endpoints/audio';
import { getGetJobUrl, getJob } from '../../api/gen/endpoints/jobs';
import { getGetProgressUrl, getProgress } from '../../api/gen/endpoints/progress';
import { bookTitle } from '../../entities/job';
import { voiceLabel } from '../../entities/provider';
import {
  asKeepError,
  deleteKept,
  jsonResponse,
  KEEP_MESSAGES,
  KeepError,
  keptKey,
  openCaches,
  readAlongKey,
} from './cache';
import { writeIndex, writeUnsent } from './persist';
import { seedReadAlong } from './readAlong';
import { isKept, kept, runtime, type KeptBook } from './state';

/**
 * Keeping a book on this device and letting it go (docs/listening.md#keeping-a-book-on-this-device).
 * A kept book is every answer the player and the book page ask for (the book, its metadata, its
 * stream answer and the audio file it names, the saved place, the cover) in the kept books' cache,
 * and its read-along chapters in their own: the player works unchanged offline, the service
 * worker answering from the cache. Either all of it is kept, or none.
 */

/** The share of the progress bar the answers before the audio, and the audio, take. */
const ANSWERS_SHARE = 2;
const AUDIO_SHARE = 90;

function setPercent(jobId: string, percent: number): void {
  const current = kept.downloads[jobId];
  const rounded = Math.min(99, Math.max(0, Math.floor(percent)));
  if (current?.status === 'downloading' && current.percent !== rounded) {
    kept.downloads[jobId] = { status: 'downloading', percent: rounded };
  }
}

/**
 * Asks the browser to keep the site's storage until the listener clears it (not to evict it when
 * space runs low). Resolves whether it will; keeping goes on either way.
 */
async function askPersistence(): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return false;
  try {
    return (await storage.persisted?.()) || (await storage.persist());
  } catch {
    return false;
  }
}

/** Fails early, before anything is written, when the browser says `bytes` will not fit. */
async function ensureRoom(bytes: number): Promise<void> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  const estimate = await storage?.estimate?.().catch(() => undefined);
  if (!estimate?.quota || estimate.usage === undefined) return;
  if (estimate.quota - estimate.usage < bytes * 1.1) throw new KeepError('quota');
}

/** What one keeping writes, so a failure deletes exactly that. */
interface Written {
  keys: string[];
  readAlong: number[];
  bytes: number;
}

async function put(cache: Cache, url: string, response: Response, written: Written): Promise<void> {
  const key = keptKey(url);
  written.keys.push(key);
  try {
    await cache.put(key, response);
  } catch (error) {
    throw asKeepError(error);
  }
}

async function putJson(cache: Cache, url: string, body: unknown, written: Written): Promise<void> {
  const response = jsonResponse(body);
  written.bytes += JSON.stringify(body).length;
  await put(cache, url, response, written);
}

/** The audio file's bytes, counted into the progress bar as they arrive. */
async function keepAudio(cache: Cache, jobId: string, url: string, signal: AbortSignal, written: Written) {
  const response = await fetch(url, { signal });
  if (!response.ok || !response.body) throw new Error(`The audio answered ${response.status}`);
  const total = Number(response.headers.get('content-length')) || 0;
  await ensureRoom(total);
  const counter = { received: 0 };
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counter.received += chunk.byteLength;
        if (total > 0) setPercent(jobId, ANSWERS_SHARE + (AUDIO_SHARE * counter.received) / total);
        controller.enqueue(chunk);
      },
    }),
  );
  const headers = new Headers({ 'content-type': response.headers.get('content-type') ?? 'audio/mpeg' });
  if (total > 0) headers.set('content-length', String(total));
  await put(cache, url, new Response(counted, { headers }), written);
  written.bytes += counter.received;
}

/**
 * The read-along's chapters, each under its whole URL. A book converted without a timing map has
 * none (404): it is kept without them, as it plays without them online.
 */
async function keepReadAlong(
  cache: Cache,
  jobId: string,
  chapters: readonly { order: number }[],
  signal: AbortSignal,
  written: Written,
): Promise<void> {
  for (const [index, { order }] of chapters.entries()) {
    try {
      const transcript = await getAudioTranscript(jobId, { chapter: order }, { signal });
      written.readAlong.push(order);
      written.bytes += JSON.stringify(transcript).length;
      await cache.put(readAlongKey(jobId, order), jsonResponse(transcript));
    } catch (error) {
      if (error instanceof ApiError && error.notFound) return;
      throw asKeepError(error);
    }
    setPercent(
      jobId,
      ANSWERS_SHARE + AUDIO_SHARE + ((100 - ANSWERS_SHARE - AUDIO_SHARE) * (index + 1)) / chapters.length,
    );
  }
}

/** Everything of a finished book into the caches; resolves the index entry. */
async function keepEverything(jobId: string, signal: AbortSignal, written: Written): Promise<KeptBook> {
  const caches = await openCaches();
  const persisted = await askPersistence();
  const [job, metadata, stream, progress] = await Promise.all([
    getJob(jobId, { signal }),
    getAudioMetadata(jobId, { signal }),
    getAudioStream(jobId, { signal }),
    getProgress(jobId, { signal }),
  ]);
  if (job.status !== 'COMPLETED' || stream.source_job_id) throw new KeepError('notReady');
  await keepAudio(caches.books, jobId, stream.streaming_url, signal, written);
  const cover = await getAudioCover(jobId, { signal });
  written.bytes += cover.size;
  await put(
    caches.books,
    getGetAudioCoverUrl(jobId),
    new Response(cover, { headers: { 'content-type': cover.type } }),
    written,
  );
  await putJson(caches.books, getGetJobUrl(jobId), job, written);
  await putJson(caches.books, getGetAudioMetadataUrl(jobId), metadata, written);
  await putJson(caches.books, getGetAudioStreamUrl(jobId), stream, written);
  await putJson(caches.books, getGetProgressUrl(jobId), progress, written);
  await keepReadAlong(caches.readAlong, jobId, metadata.chapters, signal, written);
  return {
    id: jobId,
    title: bookTitle(job),
    author: job.config.author?.trim() || null,
    voice: voiceLabel(job).label,
    duration: metadata.duration,
    chapters: metadata.chapters.length,
    bytes: written.bytes,
    keptAt: new Date().toISOString(),
    createdAt: job.created_at,
    keys: written.keys,
    readAlong: written.readAlong,
    persisted,
  };
}

/** A failure in words for the reader: storage's own, else the download's. */
function keepFailure(error: unknown): string {
  const storage = asKeepError(error);
  if (storage instanceof KeepError) return storage.message;
  return errorMessage(error, KEEP_MESSAGES.network);
}

/**
 * "Download to this device": keeps a finished book, showing its progress in `kept.downloads`.
 * The book's read-along goes into `client` at once. Resolves true once it is kept; on failure
 * (or when cancelled) nothing of it stays behind, and the download says why (cancelled: nothing).
 */
export async function keepBook(client: QueryClient, jobId: string): Promise<boolean> {
  if (isKept(kept, jobId) || kept.downloads[jobId]?.status === 'downloading') return isKept(kept, jobId);
  const controller = new AbortController();
  runtime.aborts.set(jobId, controller);
  kept.downloads[jobId] = { status: 'downloading', percent: 0 };
  const written: Written = { keys: [], readAlong: [], bytes: 0 };
  try {
    const book = await keepEverything(jobId, controller.signal, written);
    kept.books[jobId] = book;
    writeIndex();
    delete kept.downloads[jobId];
    await seedReadAlong(client, book);
    return true;
  } catch (error) {
    await deleteKept(written.keys, jobId, written.readAlong);
    if (controller.signal.aborted) delete kept.downloads[jobId];
    else kept.downloads[jobId] = { status: 'failed', message: keepFailure(error) };
    return false;
  } finally {
    if (runtime.aborts.get(jobId) === controller) runtime.aborts.delete(jobId);
  }
}

/** Stops a download under way; nothing of it stays behind. */
export function cancelKeeping(jobId: string): void {
  runtime.aborts.get(jobId)?.abort();
}

/** The failed download's message has been read: the button offers a new try. */
export function dismissKeepFailure(jobId: string): void {
  if (kept.downloads[jobId]?.status === 'failed') delete kept.downloads[jobId];
}

/** "Remove from this device": the book leaves the index at once, its bytes the caches after. */
export async function removeBook(jobId: string): Promise<void> {
  const book = kept.books[jobId];
  if (!book) return;
  delete kept.books[jobId];
  writeIndex();
  await deleteKept(book.keys, jobId, book.readAlong);
}

/**
 * Signing out: nothing of this account stays on the device for the next one who uses the browser
 * (a kept book's answers would otherwise be served offline to whoever opens the app). Downloads
 * under way stop; every kept book, unsent place and offer goes.
 */
export async function forgetThisAccount(): Promise<void> {
  for (const controller of runtime.aborts.values()) controller.abort();
  const books = Object.entries(kept.books);
  for (const key of Object.keys(kept.books)) delete kept.books[key];
  for (const key of Object.keys(kept.unsent)) delete kept.unsent[key];
  for (const key of Object.keys(kept.offers)) delete kept.offers[key];
  writeIndex();
  writeUnsent();
  await Promise.all(books.map(([jobId, book]) => deleteKept(book.keys, jobId, book.readAlong)));
}
