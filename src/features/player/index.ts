export { usePlayer, useChapters } from './hooks';
export { Player } from './Player';
export { PlayerAudio } from './PlayerAudio';
export { ChapterList } from './ChapterList';
export { watchMediaSession } from './mediaSession';
export { useSavedProgress } from './progressCache';
export {
  attachMedia,
  changeVolume,
  chapterAt,
  chaptersOf,
  clearAudio,
  configurePlayer,
  jumpToChapter,
  loadJob,
  nextChapter,
  pause,
  play,
  PLAYBACK_RATES,
  previousChapter,
  resetPlayer,
  resetProgress,
  saveNow,
  seek,
  setPlaybackRate,
  setVolume,
  skip,
  state as playerState,
  togglePlay,
  togglePlayback,
  watchPageHide,
  type ChapterInfo,
  type MediaElement,
  type PlayerState,
} from './store';
