export { useListeningPosition, usePlayer } from './hooks';
export { Player } from './Player';
export { PlayerAudio } from './PlayerAudio';
export { ChapterList } from './ChapterList';
export { ReadAlong } from './ReadAlong';
export { useSavedProgress } from './progressCache';
export { listenAgain, loadJob, playFrom, resetPlayer, state as playerState, togglePlayback } from './store';
