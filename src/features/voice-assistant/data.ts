import {
  hashKey,
  MutationObserver,
  QueryObserver,
  useIsMutating,
  type QueryCacheNotifyEvent,
  type QueryClient,
} from '@tanstack/react-query';
import {
  getGetVoiceAssistantStatusQueryKey,
  getGetVoiceAssistantStatusQueryOptions,
  getStartVoiceAssistantMutationKey,
  getStartVoiceAssistantMutationOptions,
  getStopVoiceAssistantMutationOptions,
} from '../../api/gen/endpoints/voice-assistant';
import type { VoiceAssistantStartRequest, VoiceAssistantStatus } from '../../api/gen/model';
import { deps } from './deps';
import { runtime, type Hearing, type ServiceStatus } from './store';

/**
 * What the server says about the reader's assistant session, kept in React Query only
 * (docs/voice-assistant.md#where-its-state-lives): the status answer (running or stopped, the
 * websocket URL, the tools, the session's mode and book, whether the server hears speech) is one
 * query; start and stop are mutations that put their answer in its place, so the cache always
 * holds the server's latest word. The app hands the feature its cache once (attachVoiceAssistant,
 * service.ts); a test hands in its own.
 */

/** The status answer as the API gives it (GET /voice-assistant/status, and start's and stop's answers). */
export type StatusAnswer = VoiceAssistantStatus;

/** While running, the status is asked again this often (docs/product.md#voice-assistant). */
export const STATUS_POLL_MS = 10_000;

const statusKey = getGetVoiceAssistantStatusQueryKey();
const statusHash = hashKey(statusKey);
const startKey = getStartVoiceAssistantMutationKey();

/** What the feature does with each answer or failure of the status query (service.ts). */
export interface StatusListener {
  /** A status answer the server gave (a fetch: never a start's or stop's answer). */
  answered: (answer: StatusAnswer) => void;
  failed: (error: unknown) => void;
}

/**
 * Hands the feature the data cache it reads and writes, and has `listener` hear every status
 * answer fetched into it, whoever asked (the poll, Refresh status, a component). Returns the
 * function that lets it go (a no-op when that cache was attached already).
 */
export function attachStatusCache(client: QueryClient, listener: StatusListener): () => void {
  if (runtime.cache === client) return () => {};
  runtime.stopWatchingCache?.();
  runtime.cache = client;
  const stopWatching = client.getQueryCache().subscribe((event: QueryCacheNotifyEvent) => {
    if (event.type !== 'updated' || event.query.queryHash !== statusHash) return;
    const { action } = event;
    if (action.type === 'success' && !action.manual) listener.answered(action.data as StatusAnswer);
    else if (action.type === 'error') listener.failed(action.error);
  });
  runtime.stopWatchingCache = stopWatching;
  return () => {
    if (runtime.cache !== client) return;
    stopWatching();
    runtime.cache = null;
    runtime.stopWatchingCache = null;
  };
}

/** The data cache handed to the feature (throws before one is). */
export function voiceCache(): QueryClient {
  if (!runtime.cache) throw new Error('The voice assistant has no data cache yet: attachVoiceAssistant hands it one');
  return runtime.cache;
}

/** The status query. Only the page's watcher polls it; everyone else reads what it holds. */
export const statusQuery = () =>
  getGetVoiceAssistantStatusQueryOptions({ query: { retry: false, staleTime: Infinity } });

/** Asks the server for the status now (an answer or a failure reaches the listener). */
export async function fetchStatus(): Promise<void> {
  await voiceCache().fetchQuery({ ...statusQuery(), staleTime: 0 });
}

/**
 * Keeps the status fresh while the page watches it: asked once now, then every STATUS_POLL_MS
 * while the server says the session runs. Returns the function that stops watching.
 */
export function pollStatus(): () => void {
  const observer = new QueryObserver(voiceCache(), {
    ...statusQuery(),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? STATUS_POLL_MS : false),
  });
  return observer.subscribe(() => {});
}

/** The server's latest status answer, or null before the first one. */
export function cachedStatus(): StatusAnswer | null {
  return runtime.cache?.getQueryData<StatusAnswer>(statusKey) ?? null;
}

/** A start is out: it owns the status until it answers. */
export function isStarting(): boolean {
  return (runtime.cache?.isMutating({ mutationKey: startKey }) ?? 0) > 0;
}

/** A start's or stop's answer becomes the status; an older status request still out is dropped. */
async function putStatus(client: QueryClient, answer: StatusAnswer): Promise<void> {
  await client.cancelQueries({ queryKey: statusKey, exact: true });
  client.setQueryData(statusKey, answer);
}

/** POST /voice-assistant/start: the session the page asks for (the server ends a running one). */
export function startSession(data: VoiceAssistantStartRequest): Promise<StatusAnswer> {
  const client = voiceCache();
  return new MutationObserver(client, {
    ...getStartVoiceAssistantMutationOptions(),
    onSuccess: (answer) => putStatus(client, answer),
  }).mutate({ data });
}

/** POST /voice-assistant/stop. */
export function stopSession(): Promise<StatusAnswer> {
  const client = voiceCache();
  return new MutationObserver(client, {
    ...getStopVoiceAssistantMutationOptions(),
    onSuccess: (answer) => putStatus(client, answer),
  }).mutate();
}

/**
 * The service's status as the page shows it: Starting while a start is out, Error after a failed
 * request about the service, else what the server last said (Unknown before it said anything).
 */
export function serviceStatusOf(failed: boolean, starting: boolean, answer: StatusAnswer | null): ServiceStatus {
  if (starting) return 'starting';
  if (failed) return 'error';
  return answer?.status ?? 'unknown';
}

/**
 * Who hears the reader: the server when it has a speech service, else the browser when it can
 * listen, else nobody (the reader types).
 */
export function hearingOf(answer: StatusAnswer | null): Hearing {
  if (answer?.speech_to_text !== false) return 'server';
  return deps().speechRecognition() === null ? 'none' : 'browser';
}

/** Whether a start is out, for rendering. */
export function useStarting(): boolean {
  return useIsMutating({ mutationKey: startKey }) > 0;
}
