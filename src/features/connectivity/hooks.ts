import { useSnapshot } from 'valtio';
import { connectivity } from './state';

/** Whether the browser is online now (re-renders when it goes offline or comes back). */
export function useOnline(): boolean {
  return useSnapshot(connectivity).online;
}
