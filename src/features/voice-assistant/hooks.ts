import { useSnapshot } from 'valtio';
import { useGetVoiceConversation } from '../../api/gen/endpoints/voice-assistant/voice-assistant';
import type { Recap } from './state';
import { state } from './store';

/** The voice assistant page state for rendering (re-renders on change). */
export function useVoiceAssistant() {
  return useSnapshot(state);
}

/**
 * "Previously…" for a finished book: the recap the server offers once the book has rested
 * RECAP_AFTER_MINUTES (null when it offers none, or while it loads).
 */
export function useRecap(jobId: string, enabled: boolean): Recap | null {
  const kept = useGetVoiceConversation(jobId, {
    query: { enabled, staleTime: Infinity, retry: false },
  });
  const recap = enabled ? kept.data?.recap : null;
  return recap ? { text: recap.text, restedMinutes: recap.rested_minutes } : null;
}
