import { useSnapshot } from 'valtio';
import { state } from './store';

/** The auth state for rendering (re-renders on change). */
export function useAuth() {
  return useSnapshot(state);
}
