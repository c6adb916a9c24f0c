/**
 * The player. Its client state lives in store.ts: `state` (the Valtio proxy screens render from)
 * and `runtime` (one plain, non-reactive object for the <audio> element, the data cache, timer
 * handles and listeners, which must not trigger renders); nothing else mutable sits at module
 * level. The actions are in files named for what they do (controls.ts, media.ts, saving.ts,
 * sleep.ts, connection.ts). The app hands the player its data cache once: attachPlayer (store.ts).
 */
export { useListeningPosition, usePlayer } from './hooks';
export { Player } from './Player';
export { PlayerAudio } from './PlayerAudio';
export { ChapterList } from './ChapterList';
export { ReadAlong } from './ReadAlong';
export { useSavedProgress } from './progressCache';
export { useOpeningPlayable, usePlayerMetadata } from './data';
export { listenAgain, loadJob, playBook, playChapter, playFrom, resetPlayer, togglePlayback } from './controls';
export { isReady, state as playerState } from './store';
