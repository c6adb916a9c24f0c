import { useSnapshot } from 'valtio';
import { state } from './store';

/** The voice assistant page state for rendering (re-renders on change). */
export function useVoiceAssistant() {
  return useSnapshot(state);
}
