/**
 * Voice assistant sessions: one per user, each with its own mode and book. Starting or stopping
 * one user's session never touches another's. In memory: a restart stops every session.
 */
import { DomainError } from '../errors';
import type { AssistantMode } from './brain';
import type { BookSource } from './books';

export interface VoiceSession {
  userId: string;
  mode: AssistantMode | null;
  jobId: string | null;
  startedAt: Date;
}

export interface VoiceSessions {
  get(userId: string): VoiceSession | null;
  /**
   * Starts the user's session. Throws DomainError not_found ('Book not found') when jobId is not
   * one of the user's COMPLETED jobs. When a session already runs with the same mode and book, it
   * is answered as is; with another mode or book it is SWITCHED: the old session ends (its
   * sockets close, onStop with 'switched') and the new one starts, so no page ever talks to a
   * stale mode. Concurrent starts of one user are refused (conflict) while the first is checked.
   */
  start(
    userId: string,
    options: { mode?: AssistantMode | undefined; jobId?: string | undefined },
  ): Promise<VoiceSession>;
  /** Stops the user's session; conflict when it is not running. Closes the user's connections. */
  stop(userId: string): VoiceSession;
  /** Called after a user's session stops or is switched (the websocket layer closes that user's sockets). */
  onStop(listener: (session: VoiceSession, why: StopReason) => void): void;
  /** Stops everything (app shutdown). */
  stopAll(): void;
}

export type StopReason = 'stopped' | 'switched';

export const ALREADY_RUNNING = 'The voice assistant is already starting';
export const NOT_RUNNING = 'The voice assistant is not running';

export function createVoiceSessions(deps: { books: BookSource; now?: () => Date }): VoiceSessions {
  const now = deps.now ?? (() => new Date());
  const sessions = new Map<string, VoiceSession>();
  const starting = new Set<string>();
  const listeners: ((session: VoiceSession, why: StopReason) => void)[] = [];

  function stopped(session: VoiceSession, why: StopReason = 'stopped'): void {
    for (const listener of listeners) listener(session, why);
  }

  return {
    get: (userId) => sessions.get(userId) ?? null,
    async start(userId, options) {
      if (starting.has(userId)) throw new DomainError('conflict', ALREADY_RUNNING);
      const mode = options.mode ?? null;
      const jobId = options.jobId ?? null;
      const running = sessions.get(userId);
      if (running !== undefined && running.mode === mode && running.jobId === jobId) return running;
      starting.add(userId);
      try {
        if (jobId !== null && (await deps.books.findCompleted(userId, jobId)) === null) {
          throw new DomainError('not_found', 'Book not found');
        }
        const previous = sessions.get(userId);
        const session: VoiceSession = { userId, mode, jobId, startedAt: now() };
        sessions.set(userId, session);
        if (previous !== undefined) stopped(previous, 'switched');
        return session;
      } finally {
        starting.delete(userId);
      }
    },
    stop(userId) {
      const session = sessions.get(userId);
      if (session === undefined) throw new DomainError('conflict', NOT_RUNNING);
      sessions.delete(userId);
      stopped(session);
      return session;
    },
    onStop(listener) {
      listeners.push(listener);
    },
    stopAll() {
      const all = [...sessions.values()];
      sessions.clear();
      for (const s of all) stopped(s);
    },
  };
}
