import { useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { MiniPlayer } from '../../features/player/MiniPlayer';
import { PlayerAudio } from '../../features/player/PlayerAudio';
import { attachPlayer } from '../../features/player/store';
import { attachDeviceKeeping } from '../../features/player/saving';
import { deviceKeeping, useWatchKeptBooks } from '../../features/kept-books';
import AppNotices from './AppNotices';

/**
 * The player's part of the signed-in frame, a chunk of its own fetched once the first screen is
 * up: the one audio element and the mini-player that controls it. The app's data cache is
 * attached to the player here too, in a layout effect: before the audio element's own effects
 * run (after a reload it brings back the last book, which reads the cache), whether or not the
 * shell's attach (src/app/featureCaches.ts), which waits for the player's store to load, has
 * answered yet. The app's own notices (offline, a new version) and the service worker's
 * registration come with it, outside every screen's first load.
 */
export function PlayerDock() {
  const client = useQueryClient();
  useLayoutEffect(() => attachPlayer(client), [client]);
  // Saves that cannot reach the server wait on the device, and are sent once it can be reached.
  useLayoutEffect(() => attachDeviceKeeping(deviceKeeping), []);
  useWatchKeptBooks();
  return (
    <>
      <AppNotices />
      <PlayerAudio />
      <MiniPlayer />
    </>
  );
}
