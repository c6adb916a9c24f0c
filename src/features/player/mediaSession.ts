import { subscribe } from 'valtio';
import { chapterAt, chaptersOf } from './chapters';
import { nextChapter, previousChapter, seek, skip } from './controls';
import { loadedMetadata } from './data';
import { pause, play } from './media';
import { SKIP_SECONDS } from './settings';
import { isReady, runtime, state } from './store';

type MetadataConstructor = new (init: MediaMetadataInit) => MediaMetadata;

/** The loaded book's cover as an image URL for the artwork, or null (see PlayerAudio). */
export type ArtworkSource = (jobId: string) => Promise<{ src: string; type: string } | null>;

/**
 * Lock screens, headsets and the browser's media hub: shows the book (artist 'Lectio', album the
 * current chapter, the book's cover as artwork) and routes their buttons to the store. Chapters
 * are the tracks. The buttons are set again each time playback starts: WebKit forgets them when
 * playback stops, which greys out the lock screen's controls. A no-op where the Media Session API
 * is missing. Returns the function that stops it.
 */
export function watchMediaSession(
  session: MediaSession | undefined = typeof navigator === 'undefined' ? undefined : navigator.mediaSession,
  Metadata: MetadataConstructor | undefined = typeof MediaMetadata === 'undefined' ? undefined : MediaMetadata,
  artworkFor: ArtworkSource = async () => null,
): () => void {
  if (!session) return () => {};
  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => play()],
    ['pause', () => pause()],
    ['seekbackward', (details) => skip(-(details.seekOffset ?? SKIP_SECONDS))],
    ['seekforward', (details) => skip(details.seekOffset ?? SKIP_SECONDS)],
    ['seekto', (details) => details.seekTime !== undefined && seek(details.seekTime)],
    ['previoustrack', () => previousChapter()],
    ['nexttrack', () => nextChapter()],
  ];
  const setHandlers = () => {
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // The browser does not know this action: leave it out.
      }
    }
  };
  setHandlers();
  let playing = state.isPlaying;

  let shown = '';
  let artwork: { jobId: string; image: { src: string; type: string } | null } | null = null;
  let stopped = false;
  const fetchArtwork = (jobId: string) => {
    artwork = { jobId, image: null };
    void artworkFor(jobId)
      .catch(() => null)
      .then((image) => {
        if (stopped || artwork?.jobId !== jobId) return;
        artwork = { jobId, image };
        shown = '';
        update();
      });
  };
  const update = () => {
    const metadata = loadedMetadata();
    const title = metadata?.title;
    const jobId = state.currentJobId;
    if (jobId && artwork?.jobId !== jobId) fetchArtwork(jobId);
    const chapter = chapterAt(chaptersOf(metadata), state.currentPosition);
    const image = artwork?.jobId === jobId ? artwork?.image : null;
    const key = `${title ?? ''}|${chapter?.title ?? ''}|${image?.src ?? ''}`;
    if (key !== shown) {
      shown = key;
      session.metadata =
        title && Metadata
          ? new Metadata({
              title,
              artist: 'Lectio',
              album: chapter?.title ?? title,
              artwork: image ? [{ src: image.src, sizes: '400x600', type: image.type }] : [],
            })
          : null;
    }
    if (state.isPlaying && !playing) setHandlers();
    playing = state.isPlaying;
    session.playbackState = isReady(state) ? (state.isPlaying ? 'playing' : 'paused') : 'none';
    if (state.duration > 0 && typeof session.setPositionState === 'function') {
      try {
        session.setPositionState({
          duration: state.duration,
          position: Math.min(state.currentPosition, state.duration),
          playbackRate: state.playbackRate,
        });
      } catch {
        // An inconsistent moment (position past a shrinking duration): the next update fixes it.
      }
    }
  };
  update();
  const unsubscribe = subscribe(state, update);
  // A converting book's metadata is asked again while it plays: its chapters change in the cache.
  const unsubscribeCache = runtime.queryClient?.getQueryCache().subscribe(update) ?? (() => {});
  return () => {
    stopped = true;
    unsubscribe();
    unsubscribeCache();
    for (const [action] of handlers) {
      try {
        session.setActionHandler(action, null);
      } catch {
        // see above
      }
    }
    session.metadata = null;
    session.playbackState = 'none';
  };
}
