import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { getGetAudioCoverQueryOptions } from '../../api/gen/endpoints/audio';
import { watchMediaSession, type ArtworkSource } from './mediaSession';
import { installPlayerShortcuts } from './shortcuts';
import { usePlayerMetadata } from './data';
import { onConnectionChange, watchConnection } from './connection';
import { pauseForOutage, recoverAfterOutage, restoreLastBook } from './controls';
import { attachMedia } from './media';
import { watchPageHide } from './saving';

/**
 * Media Session artwork: the book's cover from the same cached query the cover images use (fetched
 * once a session), as a blob URL kept until the player goes away. Returns the source and a cleanup.
 */
function coverArtwork(queryClient: QueryClient): { artworkFor: ArtworkSource; release: () => void } {
  const urls = new Map<string, string>();
  return {
    artworkFor: async (jobId) => {
      const blob = await queryClient.fetchQuery({
        ...getGetAudioCoverQueryOptions(jobId),
        staleTime: Infinity,
        gcTime: Infinity,
        retry: false,
      });
      if (!(blob instanceof Blob) || blob.size === 0) return null;
      const src = urls.get(jobId) ?? URL.createObjectURL(blob);
      urls.set(jobId, src);
      return { src, type: blob.type || 'image/svg+xml' };
    },
    release: () => {
      for (const url of urls.values()) URL.revokeObjectURL(url);
      urls.clear();
    },
  };
}

/**
 * The app's one <audio> element. It hands itself to the player store (which drives it) and
 * watches the page being hidden (to save the place), the Media Session and the keyboard shortcuts
 * (shortcuts.ts). The data cache comes from the app (attachPlayer). Mounted once, around the signed-in screens, so a book keeps playing
 * from one page to the next.
 */
export function PlayerAudio() {
  const audio = useRef<HTMLAudioElement>(null);
  const queryClient = useQueryClient();
  // The outage banner's source, and what the player does when the server goes away and comes back.
  useEffect(() => watchConnection(queryClient), [queryClient]);
  useEffect(() => onConnectionChange((reachable) => (reachable ? void recoverAfterOutage() : pauseForOutage())), []);
  // After a reload the mini player is back with the last book, paused at its saved place.
  useEffect(() => void restoreLastBook(), []);
  // Observed here, the loaded book's metadata stays in the cache on every page.
  usePlayerMetadata();
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const detach = attachMedia(element);
    const stopPageHide = watchPageHide();
    const artwork = coverArtwork(queryClient);
    const stopSession = watchMediaSession(undefined, undefined, artwork.artworkFor);
    const stopShortcuts = installPlayerShortcuts();
    return () => {
      stopShortcuts();
      stopSession();
      artwork.release();
      stopPageHide();
      detach();
    };
  }, [queryClient]);
  return <audio ref={audio} preload="metadata" data-testid="player-audio" />;
}
