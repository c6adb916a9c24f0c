import { useSnapshot } from 'valtio';
import { isReady, state } from './store';

/**
 * The player for a screen that only shows what plays and starts a book (the home's shelves): the
 * state, and the controls loaded when first used. The player itself (controls, the <audio>
 * element, the Media Session) is a chunk of its own that the signed-in shell fetches once the
 * first screen is up, so the home's first load does not carry it (`npm run bench -- bundle`).
 */
export function usePlaybackState() {
  const snapshot = useSnapshot(state);
  return { currentJobId: snapshot.currentJobId, isPlaying: snapshot.isPlaying, ready: isReady(snapshot) };
}

/** Play `jobId` from its saved place, pause it if it plays, resume it if it is paused. */
export async function playOrPause(jobId: string): Promise<void> {
  const { togglePlayback } = await import('./controls');
  await togglePlayback(jobId);
}
