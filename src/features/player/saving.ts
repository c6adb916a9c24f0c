import { deleteProgress, saveProgress } from '../../api/gen/endpoints/progress';
import { errorMessage } from '../../api/errors';
import { isUnreachable, reportFailure } from './connection';
import { playerCache } from './data';
import { forgetSavedProgress, writeSavedProgress } from './progressCache';
import { environment } from './environment';
import { SAVE_INTERVAL_MS } from './settings';
import { isReady, runtime, state, type DeviceKeeping, type UnsentPlace } from './store';

/**
 * Saving the reader's place (docs/product.md#player): every 10 s while playing, on pause, when the
 * page is hidden or left. What the server saved goes into the data cache (progressCache.ts), so
 * every screen that shows progress shows it at once.
 */

/** Playback started: save every SAVE_INTERVAL_MS from now on. */
export function startSaving(): void {
  stopSaving();
  runtime.saveTimer = environment().setInterval(() => void saveNow(), SAVE_INTERVAL_MS);
}

export function stopSaving(): void {
  if (runtime.saveTimer !== null) environment().clearInterval(runtime.saveTimer);
  runtime.saveTimer = null;
}

/** What was saved (or loaded) last: a save at the same place is skipped. Null: nothing yet. */
export function markSaved(position: number | null): void {
  runtime.lastSavedPosition = position;
}

/**
 * Hands the player the device's queue of unsent places: a save that cannot reach the server (or
 * that the queue holds, offline or while it has places of that book to send) goes there instead
 * of being lost. Returns the function that takes it back.
 */
export function attachDeviceKeeping(queue: DeviceKeeping): () => void {
  const previous = runtime.deviceKeeping;
  runtime.deviceKeeping = queue;
  return () => {
    if (runtime.deviceKeeping === queue) runtime.deviceKeeping = previous;
  };
}

/**
 * Saves the position now (PUT /progress/{id}: position_seconds and current_chapter_id only).
 * Skipped when nothing moved since the last save. A save the server cannot be reached for goes to
 * the device's queue when one is attached; other failures are logged: playback goes on.
 */
export async function saveNow(options: { keepalive?: boolean } = {}): Promise<void> {
  const jobId = state.currentJobId;
  if (!jobId || !isReady(state)) return;
  const position = Math.round(state.currentPosition * 10) / 10;
  if (runtime.lastSavedPosition !== null && Math.abs(position - runtime.lastSavedPosition) < 0.05) return;
  runtime.lastSavedPosition = position;
  const place: UnsentPlace = { jobId, position, chapterId: state.currentChapter, madeAt: Date.now() };
  const queue = runtime.deviceKeeping;
  if (queue?.holds(jobId)) {
    queue.keep(place);
    return;
  }
  try {
    const saved = await saveProgress(
      jobId,
      { position_seconds: position, current_chapter_id: state.currentChapter },
      options.keepalive ? { keepalive: true } : undefined,
    );
    writeSavedProgress(playerCache(), saved);
  } catch (error) {
    if (queue && isUnreachable(error)) {
      // Kept on the device: sent when the server can be reached again.
      queue.keep(place);
      reportFailure(error);
      return;
    }
    // Not saved: the next save tries again from here (the server may be away for a while).
    if (runtime.lastSavedPosition === position) runtime.lastSavedPosition = null;
    reportFailure(error);
    console.warn(errorMessage(error, 'Failed to update progress'), error);
  }
}

/** Deletes the saved place of `jobId`; resolves false (with the error in the state) when that failed. */
export async function forgetPlace(jobId: string): Promise<boolean> {
  try {
    await deleteProgress(jobId);
  } catch (error) {
    state.error = errorMessage(error, 'Your place could not be reset. Try again in a moment.');
    return false;
  }
  forgetSavedProgress(playerCache(), jobId);
  runtime.lastSavedPosition = 0;
  return true;
}

/**
 * Saves when the page is hidden or left, so closing the tab keeps the place. Returns the
 * function that stops watching.
 */
export function watchPageHide(doc: Document = document, win: Window = window): () => void {
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') void saveNow({ keepalive: true });
  };
  const onPageHide = () => void saveNow({ keepalive: true });
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', onPageHide);
  return () => {
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pagehide', onPageHide);
  };
}
