import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/errors';
import { getEnvironment } from '../../api/gen/endpoints/environment';
import { environment } from './environment';
import { connection, runtime } from './store';

/**
 * Whether Lectio's server can be reached (docs/listening.md#when-the-server-cannot-be-reached).
 * A request that gets no answer at all marks it unreachable: the app says so in one banner, the
 * player pauses (keeping the listener's place), React Query holds its queries, and the server is
 * asked every RETRY_MS until it answers. Then every query that failed or waited is asked again and
 * the pages recover by themselves, without a reload. Whether it is reachable is the `connection`
 * proxy (store.ts).
 */

/** How often the server is asked again while it cannot be reached. */
export const RETRY_MS = 3_000;

/** What the banner says while the server cannot be reached. */
export const OUTAGE_MESSAGE = "Can't reach Lectio — retrying";

type Listener = (reachable: boolean) => void;

/** No answer at all (the network, or a proxy in front of a stopped server): not an answer from Lectio. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status === 502 || error.status === 504;
  return error instanceof TypeError && /fetch|network/i.test(error.message);
}

/** Called with the new state whenever reachability changes; returns the function that stops it. */
export function onConnectionChange(listener: Listener): () => void {
  runtime.connectionListeners.add(listener);
  return () => runtime.connectionListeners.delete(listener);
}

function setReachable(reachable: boolean): void {
  if (connection.reachable === reachable) return;
  connection.reachable = reachable;
  onlineManager.setOnline(reachable);
  for (const listener of runtime.connectionListeners) listener(reachable);
  if (reachable) {
    // Every page recovers by itself: what failed while the server was away is asked again.
    void runtime.watchedClient?.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' });
  }
}

function scheduleProbe(): void {
  if (runtime.probeTimer !== null) return;
  runtime.probeTimer = environment().setTimeout(() => {
    runtime.probeTimer = null;
    void probe();
  }, RETRY_MS);
}

/** Asks the server once: any answer of its own means it is back. */
async function probe(): Promise<void> {
  try {
    await getEnvironment();
    setReachable(true);
  } catch (error) {
    if (!isUnreachable(error)) return setReachable(true);
    setReachable(false);
    scheduleProbe();
  }
}

/** A failed call: when it got no answer at all, the server is unreachable until a probe says otherwise. */
export function reportFailure(error: unknown): void {
  if (!isUnreachable(error)) return;
  setReachable(false);
  scheduleProbe();
}

/** Something failed that may be the network (the audio stopped loading): the server is asked at once. */
export function checkConnection(): void {
  void probe();
}

/**
 * Watches every query and mutation of `queryClient` for failures to reach the server (and the
 * browser going offline). Returns the function that stops watching.
 */
export function watchConnection(queryClient: QueryClient): () => void {
  runtime.watchedClient = queryClient;
  const stopQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error') reportFailure(event.action.error);
  });
  const stopMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error') reportFailure(event.action.error);
  });
  const onOffline = () => {
    setReachable(false);
    scheduleProbe();
  };
  const onOnline = () => void probe();
  globalThis.addEventListener?.('offline', onOffline);
  globalThis.addEventListener?.('online', onOnline);
  return () => {
    stopQueries();
    stopMutations();
    globalThis.removeEventListener?.('offline', onOffline);
    globalThis.removeEventListener?.('online', onOnline);
    if (runtime.probeTimer !== null) environment().clearTimeout(runtime.probeTimer);
    runtime.probeTimer = null;
    if (runtime.watchedClient === queryClient) runtime.watchedClient = null;
  };
}

/** Back to reachable with nothing watched (stories and tests start clean). */
export function resetConnection(): void {
  if (runtime.probeTimer !== null) environment().clearTimeout(runtime.probeTimer);
  runtime.probeTimer = null;
  connection.reachable = true;
  onlineManager.setOnline(true);
}
