import { onlineManager, QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../api/http';
import {
  audioMetadataHandler,
  audioStreamHandler,
  bookJobId,
  chapterJobIds,
  convertingMetadataFixture,
  progressFixture,
  progressHandler,
} from '../../mocks/audio';
import { handlers } from '../../mocks/handlers';
import { reportFailure, resetConnection, RETRY_MS, watchConnection } from './connection';
import {
  jumpTo,
  loadJob,
  pauseForOutage,
  playBook,
  playChapter,
  playChapterFromList,
  recoverAfterOutage,
  resetPlayer,
  restoreLastBook,
  RETURN_OFFER_MS,
  returnToPrevious,
  seek,
  stopForSignOut,
} from './controls';
import { ApiError } from '../../api/errors';
import { attachMedia, PLAYER_MESSAGES } from './media';
import { configurePlayer } from './environment';
import { CONVERTING_POLL_MS, LAST_BOOK_KEY } from './settings';
import { attachDeviceKeeping } from './saving';
import { attachPlayer, connection, state, type MediaElement } from './store';
import { FakeMedia } from '../../testing/fake-media';

const server = setupServer(...handlers);
let media: FakeMedia & MediaElement;
let cache: QueryClient;
let stored: Map<string, string>;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
});
beforeEach(() => {
  stored = new Map();
  configurePlayer({
    storage: () => ({ getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) }),
  });
  resetPlayer();
  resetConnection();
  cache = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  attachPlayer(cache);
  media = new FakeMedia() as FakeMedia & MediaElement;
  attachMedia(media);
});
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
  resetConnection();
});
afterAll(() => server.close());

describe('a chapter plays as THE BOOK', () => {
  it("a chapter's Play loads the book, starts it at that chapter and offers the way back", async () => {
    server.use(progressHandler({ progress: progressFixture({ position_seconds: 46 }) }));
    expect(await playChapter(bookJobId, chapterJobIds[2])).toBe(true);
    expect(state).toMatchObject({
      currentJobId: bookJobId,
      currentChapter: chapterJobIds[2],
      currentPosition: 40,
      isPlaying: true,
      returnTo: 46,
    });
    expect(media.play).toHaveBeenCalled();
  });

  it('a click in the chapter list plays from that chapter (it does not only seek)', async () => {
    await loadJob(bookJobId);
    expect(state.isPlaying).toBe(false);
    playChapterFromList(chapterJobIds[1]);
    expect(state).toMatchObject({ currentPosition: 20, currentChapter: chapterJobIds[1], isPlaying: true });
  });

  it('Play Audiobook plays the book at its saved place', async () => {
    server.use(progressHandler({ progress: progressFixture() }));
    expect(await playBook(bookJobId)).toBe(true);
    expect(state).toMatchObject({ currentJobId: bookJobId, currentPosition: 25, isPlaying: true });
  });

  it('asks for a tap when the browser blocks the start (autoplay): Play shows, not Pause', async () => {
    media.refuse = true;
    await playBook(bookJobId);
    await flush();
    expect(state).toMatchObject({ isPlaying: false, notice: PLAYER_MESSAGES.tapToPlay, error: null });
  });

  it('Play Audiobook at the end of what is converted says what it waits for, then plays on by itself', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const converting = { metadata: convertingMetadataFixture({ ready: 1 }) };
    server.use(
      progressHandler({ progress: progressFixture({ position_seconds: 20 }) }),
      audioMetadataHandler(converting),
      audioStreamHandler({ stream: { source_job_id: chapterJobIds[0] } }),
    );
    await playBook(bookJobId);
    await vi.waitFor(() =>
      expect(state.notice).toBe('The Night Watch is still converting: it plays as soon as it is ready.'),
    );
    // The end of the first chapter's file is not played again: nothing started.
    expect(media.play).not.toHaveBeenCalled();
    expect(state).toMatchObject({ currentPosition: 20, isPlaying: false, error: null });
    converting.metadata = convertingMetadataFixture({ ready: 2 });
    await vi.advanceTimersByTimeAsync(CONVERTING_POLL_MS);
    await vi.waitFor(() => expect(state).toMatchObject({ streamChapterId: chapterJobIds[1], isPlaying: true }));
    expect(state.notice).toBeNull();
  });
});

describe('"Back to …" after a jump the listener did not drag to', () => {
  it('returns to the place before the jump, once', async () => {
    await loadJob(bookJobId);
    seek(46);
    jumpTo(6);
    expect(state).toMatchObject({ currentPosition: 6, returnTo: 46 });
    returnToPrevious();
    expect(state).toMatchObject({ currentPosition: 46, returnTo: null });
  });

  it('is offered for RETURN_OFFER_MS, and not at all for a jump of a few seconds', async () => {
    await loadJob(bookJobId);
    vi.useFakeTimers();
    seek(46);
    jumpTo(44);
    expect(state.returnTo).toBeNull();
    jumpTo(6);
    expect(state.returnTo).toBe(44);
    vi.advanceTimersByTime(RETURN_OFFER_MS + 1);
    expect(state.returnTo).toBeNull();
  });
});

describe('after a reload', () => {
  it('the last book played comes back, paused at its saved place', async () => {
    server.use(progressHandler({ progress: progressFixture() }));
    await loadJob(bookJobId);
    expect(stored.get(LAST_BOOK_KEY)).toBe(bookJobId);
    resetPlayer();
    attachMedia(media);
    expect(await restoreLastBook()).toBe(true);
    expect(state).toMatchObject({ currentJobId: bookJobId, currentPosition: 25, isPlaying: false });
  });

  it('signing out forgets what this device kept for the account', async () => {
    let forgotten = 0;
    const detach = attachDeviceKeeping({
      holds: () => false,
      keep: () => undefined,
      keptOnDevice: () => false,
      forgetAccount: async () => void (forgotten += 1),
    });
    try {
      await loadJob(bookJobId);
      await stopForSignOut();
      expect(forgotten).toBe(1);
    } finally {
      detach();
    }
  });

  it('signing out forgets the last book: the next account does not get it back', async () => {
    await loadJob(bookJobId);
    await stopForSignOut();
    expect(await restoreLastBook()).toBe(false);
    expect(state.currentJobId).toBeNull();
  });

  it('nothing is restored when no book was played', async () => {
    expect(await restoreLastBook()).toBe(false);
    expect(state.currentJobId).toBeNull();
  });
});

describe('when the server cannot be reached', () => {
  it('a call with no answer marks it unreachable; the player pauses and keeps the place', async () => {
    await playBook(bookJobId);
    seek(33);
    reportFailure(new ApiError(0, undefined));
    expect(connection.reachable).toBe(false);
    expect(onlineManager.isOnline()).toBe(false);
    pauseForOutage();
    expect(state).toMatchObject({ isPlaying: false, currentPosition: 33 });
    // An answer from the server (even an error) is no outage.
    resetConnection();
    reportFailure(new ApiError(404, { detail: 'Job not found' }));
    expect(connection.reachable).toBe(true);
  });

  it('a book kept on this device plays on through the outage', async () => {
    await playBook(bookJobId);
    seek(33);
    const detach = attachDeviceKeeping({
      holds: () => true,
      keep: () => undefined,
      keptOnDevice: (id) => id === bookJobId,
      forgetAccount: async () => undefined,
    });
    try {
      reportFailure(new ApiError(0, undefined));
      pauseForOutage();
      expect(state.isPlaying).toBe(true);
    } finally {
      detach();
    }
  });

  it('recovers by itself once the server answers again, and the book reloads at the listener’s place', async () => {
    const stop = watchConnection(cache);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let up = false;
    server.use(
      http.get('*/api/v1/environment', () => (up ? HttpResponse.json({}) : HttpResponse.error())),
      http.get('*/api/v1/audio/:id/stream', () => (up ? undefined : (HttpResponse.error() as unknown as Response))),
    );
    await playBook(bookJobId).catch(() => false);
    reportFailure(new ApiError(0, undefined));
    expect(connection.reachable).toBe(false);
    await vi.advanceTimersByTimeAsync(RETRY_MS + 10);
    expect(connection.reachable).toBe(false);
    up = true;
    await vi.advanceTimersByTimeAsync(RETRY_MS + 10);
    expect(connection.reachable).toBe(true);
    expect(onlineManager.isOnline()).toBe(true);
    vi.useRealTimers();
    await recoverAfterOutage();
    expect(state).toMatchObject({ currentJobId: bookJobId, error: null, isLoading: false });
    stop();
  });
});
