/**
 * The voice assistant page's actions (docs/voice-assistant.md#the-page): the session the page asks
 * for (its mode and book), starting and stopping it, watching its status, and the talk button.
 * The server's answers live in the React Query cache (data.ts); the client state in store.ts; the
 * connection in connection.ts.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { VoiceAssistantStartRequest } from '../../api/gen/model';
import type { AssistantMode } from '../../lib/paths';
import { connect, disconnect, endSession, sendPosition, sendText } from './connection';
import {
  attachStatusCache,
  cachedStatus,
  fetchStatus,
  isStarting,
  pollStatus,
  serviceStatusOf,
  startSession,
  stopSession,
  type StatusAnswer,
} from './data';
import { serviceError } from './problems';
import { resetState, runtime, state, type ServiceStatus, type VoiceAssistantState } from './store';

/** The service's status now (see serviceStatusOf). */
export function serviceStatus(): ServiceStatus {
  return serviceStatusOf(state.serviceFailed, isStarting(), cachedStatus());
}

/**
 * Hands the feature the data cache it reads and writes (the app's, once, from the component that
 * provides it; a test's own). Every status answer fetched into it is followed up here, whoever
 * asked for it. Returns the function that lets the cache go.
 */
export function attachVoiceAssistant(client: QueryClient): () => void {
  return attachStatusCache(client, {
    answered: (answer) => {
      runtime.followUp = Promise.resolve().then(() => followStatus(answer));
    },
    failed: (error) => {
      // A start in flight owns the status until it answers.
      if (isStarting()) return;
      state.serviceFailed = true;
      state.error = serviceError(error, 'Failed to check status');
    },
  });
}

/** Back to the initial state, dropping any live session (every story and test starts clean). */
export function resetVoiceAssistant(patch: Partial<VoiceAssistantState> = {}): void {
  endSession();
  runtime.followUp = Promise.resolve();
  resetState(patch);
}

/**
 * The page's mode, book and listening position. Another mode or book while a session runs switches
 * the session; a new position (whole seconds) is sent to a live conversation at once (set-position),
 * so X-ray follows the player while it plays.
 */
export function setContext(context: {
  mode?: AssistantMode | null;
  jobId?: string | null;
  position?: number | null;
}): void {
  const before = { mode: state.mode, jobId: state.jobId };
  if (context.mode !== undefined) state.mode = context.mode;
  if (context.jobId !== undefined) state.jobId = context.jobId;
  if (context.position !== undefined) state.position = context.position;
  // Asked for another mode or book while a session runs: look, and switch if it differs.
  if (serviceStatus() === 'running' && (before.mode !== state.mode || before.jobId !== state.jobId)) {
    void checkStatus();
    return;
  }
  if (context.position !== undefined) sendPosition();
}

/** Asks the server for the status now, and resolves once its answer is followed up. */
export async function checkStatus(): Promise<void> {
  try {
    await fetchStatus();
  } catch {
    // The failure reached the cache's listener, which says it on the page.
  }
  await runtime.followUp;
}

/** A fresh status answer: clear an earlier failure, and switch sessions when it is not the page's. */
async function followStatus(answer: StatusAnswer): Promise<void> {
  // A start in flight owns the status until it answers.
  if (isStarting()) return;
  state.serviceFailed = false;
  if (state.clientStatus !== 'error') state.error = null;
  if (answer.status === 'running' && asksForAnotherSession(answer)) await switchSession();
}

/** The page names a mode or book (e.g. "Ask Tutor" on a book) other than the running session's. */
function asksForAnotherSession(status: { mode?: string | null; job_id?: string | null }): boolean {
  if (state.mode === null && state.jobId === null) return false;
  return (status.mode ?? null) !== state.mode || (status.job_id ?? null) !== state.jobId;
}

/**
 * Starts the session the page asks for; the server ends the running one (never a stale mode).
 * A live conversation reconnects to the new session.
 */
async function switchSession(): Promise<void> {
  const wasConnected = state.clientStatus === 'connected' || state.clientStatus === 'connecting';
  if (wasConnected) await disconnect();
  await start();
  if (wasConnected && serviceStatus() === 'running') await connect();
}

/** Starts the session for the page's mode and book; its answer becomes the cached status. */
export async function start(): Promise<void> {
  state.error = null;
  const body: VoiceAssistantStartRequest = {};
  if (state.mode) body.mode = state.mode;
  if (state.jobId) body.jobId = state.jobId;
  try {
    await startSession(body);
    state.serviceFailed = false;
  } catch (error) {
    state.serviceFailed = true;
    state.error = serviceError(error, 'Failed to start service');
  }
}

/** Ends the conversation and the session; the stopped status becomes the cached one. */
export async function stop(): Promise<void> {
  if (state.clientStatus === 'connecting' || state.clientStatus === 'connected') await disconnect();
  state.error = null;
  try {
    await stopSession();
    state.serviceFailed = false;
  } catch (error) {
    state.serviceFailed = true;
    state.error = serviceError(error, 'Failed to stop service');
  }
}

/**
 * Checks the status now, then every STATUS_POLL_MS while the service is running (the status
 * query's refetchInterval). Returns the function that stops watching.
 */
export function watchStatus(): () => void {
  const unwatch = pollStatus();
  void checkStatus();
  return unwatch;
}

/**
 * The talk button: starts the session the page asks for (mode and book; the server switches a
 * running one), then connects with the microphone on.
 */
export async function talk(): Promise<void> {
  if (state.clientStatus === 'connecting' || state.clientStatus === 'connected') return;
  if (isStarting()) return;
  await start();
  if (serviceStatus() === 'running') await connect();
}

/**
 * A typed question, connected or not: when no conversation runs, it starts one first, then asks.
 * Resolves true when the question was sent.
 */
export async function ask(text: string): Promise<boolean> {
  const content = text.trim();
  if (!content) return false;
  if (state.clientStatus !== 'connected') await talk();
  return sendText(content);
}
