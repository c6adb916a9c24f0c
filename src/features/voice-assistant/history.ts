/**
 * The kept conversation (docs/voice-assistant.md#the-kept-conversation): the server keeps one per
 * reader and book across mode switches and reloads. The page loads it when it opens a book, shows
 * the "Previously…" recap the server offers after a break, and clears it on request. The server's
 * answer (turns and recap) is a React Query entry, the one the book page's "Previously…" reads
 * too; the page's conversation (kept turns, then live ones) and whether the reader dismissed the
 * recap are client state.
 */
import { clearVoiceConversation, getGetVoiceConversationQueryOptions } from '../../api/gen/endpoints/voice-assistant';
import type { VoiceConversation, VoiceTurn } from '../../api/gen/model';
import { clearConversation, entryId } from './conversation';
import { voiceCache } from './data';
import { messageOf, serviceError } from './problems';
import { state, type Recap, type TranscriptEntry } from './store';

/** A book's kept conversation, asked once per opening of the page (readers keep the answer). */
export const keptQuery = (jobId: string) =>
  getGetVoiceConversationQueryOptions(jobId, { query: { staleTime: Infinity, retry: false } });

/** The recap in the server's answer, for the page (null when it offers none). */
export function recapOf(kept: VoiceConversation | undefined): Recap | null {
  return kept?.recap ? { text: kept.recap.text, restedMinutes: kept.recap.rested_minutes } : null;
}

/** "Previously…" as the page offers it now: the loaded book's recap, unless the reader dismissed it. */
export function offeredRecap(): Recap | null {
  if (state.keptFor === null || state.recapDismissed) return null;
  return recapOf(voiceCache().getQueryData<VoiceConversation>(keptQuery(state.keptFor).queryKey));
}

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
  state.recapDismissed = false;
  clearConversation();
  if (jobId === null) return;
  try {
    const kept = await voiceCache().fetchQuery({ ...keptQuery(jobId), staleTime: 0 });
    if (state.keptFor !== jobId) return;
    // Turns said while it loaded come after the kept ones.
    state.transcript = [...kept.turns.map(toEntry), ...state.transcript];
  } catch (error) {
    // The conversation can still go on; only the earlier turns are missing.
    console.warn('voice: the kept conversation could not be loaded:', messageOf(error));
  }
}

/** "Clear conversation": the server forgets it, the page starts afresh. */
export async function clearKeptConversation(): Promise<void> {
  const jobId = state.keptFor;
  try {
    if (jobId !== null) {
      await clearVoiceConversation(jobId);
      // What the cache held is no longer the server's word: the next reader asks again.
      void voiceCache().invalidateQueries({ queryKey: keptQuery(jobId).queryKey, exact: true });
    }
    clearConversation();
    state.recapDismissed = true;
  } catch (error) {
    state.error = serviceError(error, 'Failed to clear the conversation');
  }
}

/** The reader dismissed "Previously…" (or heard it). */
export function dismissRecap(): void {
  state.recapDismissed = true;
}
