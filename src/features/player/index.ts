export { useListeningPosition, usePlayer } from './hooks';
export { Player } from './Player';
export { PlayerAudio } from './PlayerAudio';
export { ChapterList } from './ChapterList';
export { ReadAlong } from './ReadAlong';
export { useSavedProgress } from './progressCache';
export { useOpeningPlayable, usePlayerMetadata } from './data';
export { listenAgain, loadJob, playBook, playChapter, playFrom, resetPlayer, togglePlayback } from './controls';
export { isReady, state as playerState } from './store';
