/**
 * The voice assistant's conversations (table assistant_turns, owned by this module): one per user
 * and book, every turn tagged with the mode it was said in, kept across mode switches, reconnects
 * and reloads until the reader clears it. An X-ray answer keeps its evidence; a tutor answer keeps
 * the question it asked, so a tutor that comes back never asks it again.
 */
import type { DbExecutor } from '../db/types';
import type { AssistantMode } from './brain';

export interface TurnEvidence {
  text: string;
  where: string;
  position_seconds: number;
}

export interface ConversationTurn {
  id: number;
  mode: AssistantMode;
  speaker: 'reader' | 'assistant';
  text: string;
  createdAt: Date;
  evidence: TurnEvidence | null;
  /** A tutor turn's open question (what the tutor asked in it). */
  tutorQuestion: string | null;
}

export interface NewTurn {
  userId: string;
  jobId: string;
  mode: AssistantMode;
  speaker: 'reader' | 'assistant';
  text: string;
  evidence?: TurnEvidence | null;
  tutorQuestion?: string | null;
}

export interface ConversationRepository {
  /** The conversation in the order it was said (at most `limit` latest turns). */
  list(userId: string, jobId: string, limit?: number): Promise<ConversationTurn[]>;
  add(turn: NewTurn): Promise<void>;
  clear(userId: string, jobId: string): Promise<void>;
}

/** Turns a conversation answers with at most (the latest ones). */
export const CONVERSATION_LIMIT = 500;

interface TurnRow {
  id: number | string;
  mode: AssistantMode;
  speaker: 'reader' | 'assistant';
  text: string;
  evidence: unknown;
  tutor: unknown;
  created_at: Date | string;
}

const parsed = (value: unknown): Record<string, unknown> | null => {
  const v = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
};

function evidenceOf(value: unknown): TurnEvidence | null {
  const e = parsed(value);
  if (e === null || typeof e.text !== 'string' || typeof e.where !== 'string') return null;
  const seconds = Number(e.position_seconds);
  return { text: e.text, where: e.where, position_seconds: Number.isFinite(seconds) && seconds >= 0 ? seconds : 0 };
}

function toTurn(row: TurnRow): ConversationTurn {
  const tutor = parsed(row.tutor);
  return {
    id: Number(row.id),
    mode: row.mode,
    speaker: row.speaker,
    text: row.text,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
    evidence: evidenceOf(row.evidence),
    tutorQuestion: typeof tutor?.question === 'string' ? tutor.question : null,
  };
}

export function createConversationRepository(db: DbExecutor): ConversationRepository {
  return {
    async list(userId, jobId, limit = CONVERSATION_LIMIT) {
      const { rows } = await db.query<TurnRow>(
        `SELECT id, mode, speaker, text, evidence, tutor, created_at FROM (
           SELECT id, mode, speaker, text, evidence, tutor, created_at FROM assistant_turns
           WHERE user_id = $1 AND job_id = $2 ORDER BY id DESC LIMIT $3
         ) latest ORDER BY id`,
        [userId, jobId, limit],
      );
      return rows.map(toTurn);
    },
    async add(turn) {
      await db.query(
        `INSERT INTO assistant_turns (user_id, job_id, mode, speaker, text, evidence, tutor)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          turn.userId,
          turn.jobId,
          turn.mode,
          turn.speaker,
          turn.text,
          turn.evidence ? JSON.stringify(turn.evidence) : null,
          turn.tutorQuestion ? JSON.stringify({ question: turn.tutorQuestion }) : null,
        ],
      );
    },
    async clear(userId, jobId) {
      await db.query(`DELETE FROM assistant_turns WHERE user_id = $1 AND job_id = $2`, [userId, jobId]);
    },
  };
}

/** An in-memory repository for tests and benches that run the assistant without a database. */
export function memoryConversations(): ConversationRepository {
  const turns: (ConversationTurn & { userId: string; jobId: string })[] = [];
  let next = 1;
  return {
    async list(userId, jobId, limit = CONVERSATION_LIMIT) {
      return turns
        .filter((t) => t.userId === userId && t.jobId === jobId)
        .slice(-limit)
        .map(({ userId: _u, jobId: _j, ...turn }) => turn);
    },
    async add(turn) {
      turns.push({
        id: next++,
        userId: turn.userId,
        jobId: turn.jobId,
        mode: turn.mode,
        speaker: turn.speaker,
        text: turn.text,
        createdAt: new Date(),
        evidence: turn.evidence ?? null,
        tutorQuestion: turn.tutorQuestion ?? null,
      });
    },
    async clear(userId, jobId) {
      for (let i = turns.length - 1; i >= 0; i -= 1)
        if (turns[i]!.userId === userId && turns[i]!.jobId === jobId) turns.splice(i, 1);
    },
  };
}
