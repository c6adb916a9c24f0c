/**
 * The kept conversation (docs/voice-assistant.md#the-kept-conversation): the server keeps one per
 * reader and book across mode switches and reloads. The page loads it when it opens a book, shows
 * the "Previously…" recap the server offers after a break, and clears it on request.
 */
import { clearVoiceConversation, getVoiceConversation } from '../../api/gen/endpoints/voice-assistant/voice-assistant';
import type { VoiceTurn } from '../../api/gen/model';
import { clearConversation, entryId } from './conversation';
import { messageOf, serviceError } from './problems';
import { state, type TranscriptEntry } from './state';

function toEntry(turn: VoiceTurn): TranscriptEntry {
  return {
    id: entryId(),
    speaker: turn.speaker === 'reader' ? 'user' : 'bot',
    text: turn.text,
    final: true,
    at: Date.parse(turn.created_at),
    mode: turn.mode,
    ...(turn.evidence && {
      evidence: {
        text: turn.evidence.text,
        where: turn.evidence.where,
        positionSeconds: turn.evidence.position_seconds,
      },
    }),
  };
}

/** Shows the kept conversation about `jobId` (and its recap); none for the library (no book). */
export async function loadConversation(jobId: string | null): Promise<void> {
  if (jobId === state.keptFor) return;
  state.keptFor = jobId;
  state.recap = null;
  clearConversation();
  if (jobId === null) return;
  try {
    const kept = await getVoiceConversation(jobId);
    if (state.keptFor !== jobId) return;
    // Turns said while it loaded come after the kept ones.
    state.transcript = [...kept.turns.map(toEntry), ...state.transcript];
    state.recap = kept.recap && { text: kept.recap.text, restedMinutes: kept.recap.rested_minutes };
  } catch (error) {
    // The conversation can still go on; only the earlier turns are missing.
    console.warn('voice: the kept conversation could not be loaded:', messageOf(error));
  }
}

/** "Clear conversation": the server forgets it, the page starts afresh. */
export async function clearKeptConversation(): Promise<void> {
  const jobId = state.keptFor;
  try {
    if (jobId !== null) await clearVoiceConversation(jobId);
    clearConversation();
    state.recap = null;
  } catch (error) {
    state.error = serviceError(error, 'Failed to clear the conversation');
  }
}

/** The reader dismissed "Previously…" (or heard it). */
export function dismissRecap(): void {
  state.recap = null;
}
