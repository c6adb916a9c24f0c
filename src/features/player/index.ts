export { usePlayer } from './hooks';
export { Player } from './Player';
export { PlayerAudio } from './PlayerAudio';
export { ChapterList } from './ChapterList';
export { ReadAlong } from './ReadAlong';
export { useSavedProgress } from './progressCache';
export {
  clearAudio,
  listenAgain,
  loadJob,
  pause,
  resetPlayer,
  saveNow,
  state as playerState,
  togglePlayback,
} from './store';
