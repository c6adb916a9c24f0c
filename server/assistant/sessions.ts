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
   * one of the user's COMPLETED jobs, conflict when the session already runs (start is not
   * idempotent: the UI disables Start while running, so a second start is a client bug or a
   * second tab, and silently switching mode or book under an open conversation would be worse).
   */
  start(userId: string, options: { mode?: AssistantMode | undefined; jobId?: string | undefined }): Promise<VoiceSession>;
  /** Stops the user's session; conflict when it is not running. Closes the user's connections. */
  stop(userId: string): VoiceSession;
  /** Called after a user's session stops (the websocket layer closes that user's sockets). */
  onStop(listener: (session: VoiceSession) => void): void;
  /** Stops everything (app shutdown). */
  stopAll(): void;
}

export const ALREADY_RUNNING = 'The voice assistant is already running';
export const NOT_RUNNING = 'The voice assistant is not running';

export function createVoiceSessions(deps: { books: BookSource; now?: () => Date }): VoiceSessions {
  const now = deps.now ?? (() => new Date());
  const sessions = new Map<string, VoiceSession>();
  const starting = new Set<string>();
  const listeners: ((session: VoiceSession) => void)[] = [];

  function stopped(session: VoiceSession): void {
    for (const listener of listeners) listener(session);
  }

  return {
    get: (userId) => sessions.get(userId) ?? null,
    async start(userId, options) {
      if (sessions.has(userId) || starting.has(userId)) throw new DomainError('conflict', ALREADY_RUNNING);
      starting.add(userId);
      try {
        const jobId = options.jobId ?? null;
        if (jobId !== null && (await deps.books.findCompleted(userId, jobId)) === null) {
          throw new DomainError('not_found', 'Book not found');
        }
        const session: VoiceSession = { userId, mode: options.mode ?? null, jobId, startedAt: now() };
        sessions.set(userId, session);
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
