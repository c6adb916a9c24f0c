/**
 * The RTVI client-messages a connection answers (docs/voice-assistant.md): `set-position`, the
 * listener's place in a book, and `get-session`; any other is refused.
 */
import type { VoiceSession } from './sessions';
import { TOOL_NAMES } from './tools';

export interface ClientMessageIo {
  session: VoiceSession;
  /** The client's explicit listening positions per job (shared with the toolbox). */
  positions: Map<string, number>;
  message(type: string, data?: unknown, id?: string): void;
}

export function answerClientMessage(io: ClientMessageIo, id: string | undefined, data: Record<string, unknown>): void {
  const t = data.t;
  const d = data.d !== null && typeof data.d === 'object' ? (data.d as Record<string, unknown>) : {};
  if (t === 'set-position') {
    const seconds = d.seconds;
    const jobId = typeof d.job_id === 'string' ? d.job_id : io.session.jobId;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      io.message('error-response', { error: 'set-position needs d.seconds, a number >= 0' }, id);
      return;
    }
    if (jobId === null) {
      io.message('error-response', { error: 'set-position needs d.job_id: the session has no book' }, id);
      return;
    }
    io.positions.set(jobId, seconds);
    io.message('server-response', { t, d: { job_id: jobId, seconds } }, id);
    return;
  }
  if (t === 'get-session') {
    const { session } = io;
    io.message('server-response', { t, d: { mode: session.mode, job_id: session.jobId, functions: TOOL_NAMES } }, id);
    return;
  }
  io.message(
    'error-response',
    { error: `Unsupported client message ${typeof t === 'string' ? t : JSON.stringify(t)}` },
    id,
  );
}
