import type { QueryClient } from '@tanstack/react-query';
import { ApiError, isRetryable } from '../../api/errors';
import {
  getGetProgressQueryKey,
  getGetProgressUrl,
  getGetRecentProgressQueryKey,
  getProgress,
  saveProgress,
} from '../../api/gen/endpoints/progress';
import { jsonResponse, keptKey } from './cache';
import { KEPT_BOOKS_CACHE } from '../../lib/kept-cache';
import { writeUnsent } from './persist';
import { forgetThisAccount } from './actions';
import { isKept, kept, type PlaceOffer, type UnsentPlace } from './state';

/**
 * Places made while the network was away (docs/listening.md#keeping-a-book-on-this-device). The
 * player hands each save it could not make to this queue (`deviceKeeping`); the latest place per book
 * by time is kept on the device and sent when the app is online again. Before sending, the
 * server's place is read: when it is newer (another device saved after this one's last place), it
 * is offered ("Continue from 12:04 on another device?") instead of being overwritten.
 */

/** Places this close (seconds) are the same place: nothing to send or offer. */
const SAME_PLACE_SECONDS = 1;

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Keeps `place` unless a later one of the same book is kept already. */
export function keepUnsentPlace(place: UnsentPlace): void {
  const known = kept.unsent[place.jobId];
  if (known && known.madeAt > place.madeAt) return;
  kept.unsent[place.jobId] = { ...place };
  writeUnsent();
  void rememberKeptPlace(place);
}

/**
 * Whether a save of `jobId` goes to the queue rather than to the server: offline, or while the
 * book has a place waiting to be sent or a newer place on offer (the queue decides what to send).
 */
export function holdsPlace(jobId: string): boolean {
  return isOffline() || jobId in kept.unsent || jobId in kept.offers;
}

/** What this device keeps, as the player sees it (attachDeviceKeeping). */
export const deviceKeeping = {
  holds: holdsPlace,
  keep: keepUnsentPlace,
  keptOnDevice: (jobId: string) => isKept(kept, jobId),
  forgetAccount: forgetThisAccount,
};

/**
 * A kept book's saved place follows the places made offline: reloading the app offline resumes
 * there (the service worker answers the saved place from the kept copy).
 */
async function rememberKeptPlace(place: UnsentPlace): Promise<void> {
  if (!(place.jobId in kept.books) || typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(KEPT_BOOKS_CACHE);
    const key = keptKey(getGetProgressUrl(place.jobId));
    const record = (await (await cache.match(key))?.json()) as Record<string, unknown> | null | undefined;
    if (!record) return;
    const at = new Date(place.madeAt).toISOString();
    await cache.put(
      key,
      jsonResponse({
        ...record,
        position_seconds: place.position,
        current_chapter_id: place.chapterId,
        last_played_at: at,
        updated_at: at,
      }),
    );
  } catch {
    // The kept copy stays as it was: the place is still queued.
  }
}

type Outcome = 'sent' | 'offered' | 'dropped' | 'unreachable';

async function sendPlace(client: QueryClient, place: UnsentPlace): Promise<Outcome> {
  try {
    const server = await getProgress(place.jobId);
    const savedAt = server ? Date.parse(server.updated_at) : 0;
    if (server && savedAt > place.madeAt) {
      if (Math.abs(server.position_seconds - place.position) < SAME_PLACE_SECONDS) return 'dropped';
      kept.offers[place.jobId] = {
        jobId: place.jobId,
        position: server.position_seconds,
        chapterId: server.current_chapter_id,
        savedAt: server.updated_at,
        local: { ...place },
      };
      return 'offered';
    }
    const saved = await saveProgress(place.jobId, {
      position_seconds: place.position,
      current_chapter_id: place.chapterId,
    });
    client.setQueryData(getGetProgressQueryKey(saved.job_id), saved);
    void client.invalidateQueries({ queryKey: getGetRecentProgressQueryKey().slice(0, 1) });
    return 'sent';
  } catch (error) {
    // No answer (or a passing failure): kept for the next round. Any other answer (the book is
    // gone, say) will not change by asking again.
    if (!(error instanceof ApiError) || isRetryable(error)) return 'unreachable';
    return 'dropped';
  }
}

/**
 * Sends every unsent place (the latest of each book), one book at a time, unless a round is
 * under way or the browser is offline. A place made while one was being sent is sent next.
 */
export async function sendUnsentPlaces(client: QueryClient): Promise<void> {
  if (kept.sending || isOffline()) return;
  kept.sending = true;
  try {
    for (;;) {
      const place = Object.values(kept.unsent).find((p) => !(p.jobId in kept.offers));
      if (!place) return;
      const sent = { ...place };
      const outcome = await sendPlace(client, sent);
      if (outcome === 'unreachable') return;
      // A later place made meanwhile stays, to be sent (or weighed) next.
      if (kept.unsent[sent.jobId]?.madeAt === sent.madeAt) delete kept.unsent[sent.jobId];
      writeUnsent();
    }
  } finally {
    kept.sending = false;
  }
}

/**
 * "Continue from 12:04": the other device's place wins; this device's unsent places of the book
 * are let go. Resolves the offer taken (the caller plays from it), or null.
 */
export function acceptOffer(client: QueryClient, jobId: string): PlaceOffer | null {
  const offer = kept.offers[jobId];
  if (!offer) return null;
  delete kept.offers[jobId];
  delete kept.unsent[jobId];
  writeUnsent();
  void client.invalidateQueries({ queryKey: getGetProgressQueryKey(jobId) });
  return { ...offer, local: { ...offer.local } };
}

/** "Keep my place here": this device's latest place is sent after all. */
export async function declineOffer(client: QueryClient, jobId: string): Promise<void> {
  const offer = kept.offers[jobId];
  if (!offer) return;
  delete kept.offers[jobId];
  const known = kept.unsent[jobId];
  if (!known || known.madeAt < offer.local.madeAt) kept.unsent[jobId] = { ...offer.local };
  // Weighed against the server's place no more: this device's place is the one the listener chose.
  kept.unsent[jobId] = { ...kept.unsent[jobId]!, madeAt: Math.max(Date.now(), Date.parse(offer.savedAt) + 1) };
  writeUnsent();
  await sendUnsentPlaces(client);
}
