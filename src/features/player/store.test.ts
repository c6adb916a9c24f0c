import { QueryClient } from '@tanstack/react-query';
import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetProgressQueryKey, getGetRecentProgressQueryKey } from '../../api/gen/endpoints/progress';
import type { PlaybackProgressOutput } from '../../api/gen/model';
import { configureApi } from '../../api/http';
import {
  audioMetadataHandler,
  audioStreamHandler,
  bookJobId,
  chapterJobIds,
  convertingMetadataFixture,
  openingStreamHandler,
  progressFixture,
  progressHandler,
  SAMPLE_AUDIO_URL,
  SAMPLE_OPENING_SECONDS,
  SAMPLE_OPENING_URL,
} from '../../mocks/audio';
import { errorBodyFixture } from '../../mocks/fixtures';
import { handlers } from '../../mocks/handlers';
import { watchMediaSession } from './mediaSession';
import { getGetAudioMetadataQueryKey } from '../../api/gen/endpoints/audio';
import {
  changeVolume,
  clearAudio,
  jumpToChapter,
  listenAgain,
  loadJob,
  nextChapter,
  previousChapter,
  resetPlayer,
  resetProgress,
  seek,
  setPlaybackRate,
  setVolume,
  skip,
  togglePlayback,
} from './controls';
import { loadedMetadata, loadedStreamUrl } from './data';
import { attachMedia, detachMedia, isWaiting, pause, play, PLAYER_MESSAGES } from './media';
import { watchPageHide } from './saving';
import { configurePlayer } from './environment';
import { cancelSleepTimer, startSleepTimer } from './sleep';
import { attachPlayer, isReady, state, type MediaElement } from './store';
import { FakeMedia } from '../../testing/fake-media';

function fakeMedia(): FakeMedia & MediaElement {
  const media = new FakeMedia();
  // Count the store's seeks: every write to currentTime after attaching.
  let time = 0;
  Object.defineProperty(media, 'currentTime', {
    get: () => time,
    set: (value: number) => {
      time = value;
      media.seeks.push(value);
    },
  });
  return media as FakeMedia & MediaElement;
}

const server = setupServer(...handlers);
const paths: string[] = [];
const bodies: { method: string; path: string; body: unknown }[] = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
  server.events.on('request:start', async ({ request }) => {
    const path = new URL(request.url).pathname;
    paths.push(`${request.method} ${path}`);
    if (request.method === 'PUT') bodies.push({ method: request.method, path, body: await request.clone().json() });
    if (request.method === 'DELETE') bodies.push({ method: request.method, path, body: null });
  });
});
let media: FakeMedia & MediaElement;
let cache: QueryClient;
const recentKey = getGetRecentProgressQueryKey({ limit: 2 });
const recentList = () => cache.getQueryData<PlaybackProgressOutput[]>(recentKey) ?? [];
beforeEach(() => {
  configurePlayer(null);
  resetPlayer();
  cache = new QueryClient();
  attachPlayer(cache);
  paths.length = 0;
  bodies.length = 0;
  media = fakeMedia();
  attachMedia(media);
});
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
});
afterAll(() => server.close());

const saved = () => bodies.filter((b) => b.method === 'PUT');
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('player store', () => {
  it('starts empty with volume 1', () => {
    expect(state).toMatchObject({
      isPlaying: false,
      currentPosition: 0,
      duration: 0,
      volume: 1,
      playbackRate: 1,
      currentJobId: null,
      currentChapter: null,
      streamFrom: null,
      isLoading: false,
      error: null,
    });
    expect(isReady(state)).toBe(false);
  });

  it('loads stream, metadata and progress in parallel', async () => {
    const started: string[] = [];
    const release: (() => void)[] = [];
    const gate = (name: string) => async () => {
      started.push(name);
      await new Promise<void>((resolve) => release.push(resolve));
    };
    server.use(
      http.get('*/api/v1/audio/:id/stream', gate('stream'), { once: true }),
      http.get('*/api/v1/audio/:id/metadata', gate('metadata'), { once: true }),
      http.get('*/api/v1/progress/:id', gate('progress'), { once: true }),
    );
    const loading = loadJob(bookJobId);
    expect(state.isLoading).toBe(true);
    await until(() => started.length === 3);
    // All three are in flight before any of them answers.
    expect(started.sort()).toEqual(['metadata', 'progress', 'stream']);
    release.forEach((resolve) => resolve());
    await loading;
    expect(state).toMatchObject({
      currentJobId: bookJobId,
      streamFrom: bookJobId,
      duration: 60,
      currentPosition: 0,
      isLoading: false,
      error: null,
    });
    expect(isReady(state)).toBe(true);
    // The server's answers live in the data cache, not in the store.
    expect(cache.getQueryData<{ chapters: unknown[] }>(getGetAudioMetadataQueryKey(bookJobId))?.chapters).toHaveLength(
      3,
    );
    expect(loadedMetadata()?.chapters).toHaveLength(3);
    expect(loadedStreamUrl()).toBe(SAMPLE_AUDIO_URL);
    expect(Object.keys(state)).not.toContain('metadata');
    expect(media.src).toBe(SAMPLE_AUDIO_URL);
  });

  it('resumes from the saved position and chapter', async () => {
    server.use(
      progressHandler({ progress: progressFixture({ position_seconds: 25, current_chapter_id: chapterJobIds[1] }) }),
    );
    await loadJob(bookJobId);
    expect(state.currentPosition).toBe(25);
    expect(state.currentChapter).toBe(chapterJobIds[1]);
    expect(cache.getQueryData<PlaybackProgressOutput>(getGetProgressQueryKey(bookJobId))?.position_seconds).toBe(25);
    expect(media.currentTime).toBe(25);
  });

  it('a failing progress request counts as no progress', async () => {
    server.use(progressHandler({ status: 500, body: errorBodyFixture('boom') }));
    expect(await loadJob(bookJobId)).toBe(true);
    expect(state).toMatchObject({ currentPosition: 0, error: null, streamFrom: bookJobId });
    expect(state.currentChapter).toBe(chapterJobIds[0]);
  });

  it('reports a missing streaming URL', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(audioStreamHandler({ stream: { streaming_url: '' } }));
    expect(await loadJob(bookJobId)).toBe(false);
    expect(state).toMatchObject({ error: PLAYER_MESSAGES.couldNotLoad, isLoading: false, streamFrom: null });
  });

  it('shows the server message, else says what to do', async () => {
    server.use(audioMetadataHandler({ status: 404, body: errorBodyFixture('Audio not found') }));
    await loadJob(bookJobId);
    expect(state.error).toBe('Audio not found');
    server.use(audioMetadataHandler({ status: 500 }));
    await loadJob(bookJobId);
    expect(state.error).toBe('The audio could not be loaded. Check your connection, then try again.');
  });

  it('duration is 0 when the metadata has none', async () => {
    server.use(audioMetadataHandler({ metadata: { duration: 0 } }));
    await loadJob(bookJobId);
    expect(state.duration).toBe(0);
  });

  it('play and pause; the end of the audio or an error pauses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await loadJob(bookJobId);
    play();
    expect(state.isPlaying).toBe(true);
    expect(media.play).toHaveBeenCalled();
    pause();
    expect(state.isPlaying).toBe(false);
    play();
    media.dispatchEvent(new Event('ended'));
    expect(state.isPlaying).toBe(false);
    play();
    media.error = { code: 4, message: 'MEDIA_ELEMENT_ERROR: Format error' } as MediaError;
    media.dispatchEvent(new Event('error'));
    // The browser's words stay in the console: the reader is told what to do.
    expect(state).toMatchObject({
      isPlaying: false,
      error: 'This audio could not be played. Reload the page to try again.',
    });
    play();
    media.error = { code: 2, message: 'net::ERR_CONNECTION_RESET' } as MediaError;
    media.dispatchEvent(new Event('error'));
    expect(state.error).toBe('The audio stopped loading. Check your connection, then tap play to go on.');
  });

  it("a start the browser blocks (no tap yet) asks for a tap, never shows the browser's message", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await loadJob(bookJobId);
    media.play.mockImplementationOnce(() =>
      Promise.reject(
        new DOMException(
          "play() failed because the user didn't interact with the document first. https://goo.gl/xX8pDD",
          'NotAllowedError',
        ),
      ),
    );
    play();
    await until(() => !state.isPlaying);
    expect(state).toMatchObject({ isPlaying: false, error: null, notice: 'Tap play to start.' });
    // Playing clears the request.
    play();
    expect(state).toMatchObject({ isPlaying: true, notice: null });
    media.play.mockImplementationOnce(() => Promise.reject(new Error('The element has no supported sources.')));
    pause();
    play();
    await until(() => !state.isPlaying);
    expect(state.error).toBe('Playback could not start. Tap play to try again.');
  });

  it('saves the position every 10 s while playing', async () => {
    await loadJob(bookJobId);
    vi.useFakeTimers();
    play();
    media.advanceTo(4);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(saved()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(saved()).toHaveLength(1);
    expect(saved()[0]).toEqual({
      method: 'PUT',
      path: `/api/v1/progress/${bookJobId}`,
      body: { position_seconds: 4, current_chapter_id: chapterJobIds[0] },
    });
    media.advanceTo(23);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(saved().at(-1)?.body).toEqual({ position_seconds: 23, current_chapter_id: chapterJobIds[1] });
    // Once paused, the timer stops.
    pause();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(saved()).toHaveLength(2);
  });

  it('saves on pause and writes the record into the cache: its own entry and first in the recent lists', async () => {
    const other = (n: number) =>
      progressFixture({
        id: `8a8a8a8a-000${n}-4222-8333-444455556666`,
        job_id: `2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6${n}`,
      });
    cache.setQueryData(recentKey, [other(1), progressFixture({ position_seconds: 3 })]);
    cache.setQueryData(getGetRecentProgressQueryKey({ limit: 50 }), [other(1), other(2)]);
    await loadJob(bookJobId);
    play();
    media.advanceTo(12);
    pause();
    await until(() => recentList()[0]?.job_id === bookJobId);
    expect(saved().map((b) => b.body)).toEqual([{ position_seconds: 12, current_chapter_id: chapterJobIds[0] }]);
    expect(recentList().map((record) => [record.job_id, record.position_seconds])).toEqual([
      [bookJobId, 12],
      [other(1).job_id, other(1).position_seconds],
    ]);
    // A list that did not hold the book gains it first and keeps its limit (the server's order).
    expect(
      cache.getQueryData<PlaybackProgressOutput[]>(getGetRecentProgressQueryKey({ limit: 50 }))?.map((r) => r.job_id),
    ).toEqual([bookJobId, other(1).job_id, other(2).job_id]);
    expect(cache.getQueryData<PlaybackProgressOutput>(getGetProgressQueryKey(bookJobId))?.position_seconds).toBe(12);
  });

  it('saves when the page is hidden or left', async () => {
    const stop = watchPageHide(document, window);
    await loadJob(bookJobId);
    play();
    media.advanceTo(7);
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    await flush();
    expect(saved().map((b) => b.body)).toEqual([{ position_seconds: 7, current_chapter_id: chapterJobIds[0] }]);
    media.advanceTo(9);
    window.dispatchEvent(new Event('pagehide'));
    await flush();
    expect(saved()).toHaveLength(2);
    stop();
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it('moves the element only when it is more than 1 s away', async () => {
    await loadJob(bookJobId);
    media.seeks.length = 0;
    media.advanceTo(10);
    media.seeks.length = 0;
    seek(10.8);
    expect(state.currentPosition).toBe(10.8);
    expect(media.seeks).toEqual([]);
    seek(30);
    expect(media.seeks).toEqual([30]);
  });

  it('clamps seeks and skips to 0..duration', async () => {
    await loadJob(bookJobId);
    seek(-5);
    expect(state.currentPosition).toBe(0);
    seek(500);
    expect(state.currentPosition).toBe(60);
    seek(30);
    skip(10);
    expect(state.currentPosition).toBe(40);
    skip(-10);
    skip(-10);
    expect(state.currentPosition).toBe(20);
    skip(-100);
    expect(state.currentPosition).toBe(0);
  });

  it('clamps the volume to 0..1 in 0.1 steps', () => {
    setVolume(1.7);
    expect(state.volume).toBe(1);
    setVolume(-1);
    expect(state.volume).toBe(0);
    changeVolume(0.1);
    changeVolume(0.1);
    changeVolume(0.1);
    expect(state.volume).toBe(0.3);
    expect(media.volume).toBe(0.3);
  });

  it('remembers the speed per book', async () => {
    await loadJob(bookJobId);
    setPlaybackRate(1.5);
    expect(media.playbackRate).toBe(1.5);
    setPlaybackRate(3);
    expect(state.playbackRate).toBe(1.5);
    clearAudio();
    expect(state.playbackRate).toBe(1);
    await loadJob(bookJobId);
    expect(state.playbackRate).toBe(1.5);
    expect(localStorage.getItem(`lectio.playbackRate.${bookJobId}`)).toBe('1.5');
  });

  describe('sleep timer', () => {
    it('counts playing time, fades the volume over the last 10 s, pauses and gives the volume back', async () => {
      await loadJob(bookJobId);
      vi.useFakeTimers();
      setVolume(0.8);
      play();
      startSleepTimer(15);
      expect(state.sleepTimer).toEqual({ mode: 'minutes', minutes: 15, remaining: 900 });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(state.sleepTimer?.remaining).toBe(840);
      // Paused, the timer waits.
      pause();
      await vi.advanceTimersByTimeAsync(120_000);
      expect(state.sleepTimer?.remaining).toBe(840);
      play();
      await vi.advanceTimersByTimeAsync(830_000);
      expect(state.sleepTimer?.remaining).toBe(10);
      expect(media.volume).toBeCloseTo(0.8);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(media.volume).toBeCloseTo(0.4);
      await vi.advanceTimersByTimeAsync(2_500);
      expect(media.volume).toBeCloseTo(0.2);
      expect(state.isPlaying).toBe(true);
      await vi.advanceTimersByTimeAsync(2_500);
      expect(state.isPlaying).toBe(false);
      expect(media.pause).toHaveBeenCalled();
      expect(state.sleepTimer).toBeNull();
      expect(media.volume).toBeCloseTo(0.8);
      expect(state.volume).toBe(0.8);
    });

    it('cancelled during the fade, it gives the volume back and playback goes on', async () => {
      await loadJob(bookJobId);
      vi.useFakeTimers();
      play();
      startSleepTimer(30);
      await vi.advanceTimersByTimeAsync(30 * 60_000 - 4_000);
      expect(media.volume).toBeCloseTo(0.4);
      cancelSleepTimer();
      expect(state.sleepTimer).toBeNull();
      expect(media.volume).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(state.isPlaying).toBe(true);
      expect(media.volume).toBe(1);
    });

    it('"End of chapter" fades and pauses at the end of the chapter playing', async () => {
      await loadJob(bookJobId);
      play();
      media.advanceTo(5);
      startSleepTimer('chapterEnd');
      expect(state.sleepTimer).toEqual({ mode: 'chapterEnd', endsAt: 20, remaining: 15 });
      media.advanceTo(9);
      expect(media.volume).toBe(1);
      media.advanceTo(15);
      expect(media.volume).toBeCloseTo(0.5);
      expect(state.isPlaying).toBe(true);
      // The element ran a little past the end: paused there, back at the chapter's end.
      media.advanceTo(20.2);
      expect(state.isPlaying).toBe(false);
      expect(state.currentPosition).toBe(20);
      expect(state.sleepTimer).toBeNull();
      expect(media.volume).toBe(1);
    });

    it('"End of chapter" follows a seek across the chapter end to the chapter sought to', async () => {
      await loadJob(bookJobId);
      play();
      media.advanceTo(5);
      startSleepTimer('chapterEnd');
      seek(30);
      expect(state.sleepTimer).toMatchObject({ mode: 'chapterEnd', endsAt: 40, remaining: 10 });
      media.advanceTo(30);
      media.advanceTo(38);
      expect(state.isPlaying).toBe(true);
      expect(media.volume).toBeCloseTo(0.2);
      media.advanceTo(40);
      expect(state.isPlaying).toBe(false);
      expect(state.sleepTimer).toBeNull();
      // Resuming starts the next chapter.
      expect(state.currentPosition).toBe(40);
    });

    it('a new timer replaces the running one; clearing the book turns it off', async () => {
      await loadJob(bookJobId);
      startSleepTimer(15);
      startSleepTimer(45);
      expect(state.sleepTimer).toEqual({ mode: 'minutes', minutes: 45, remaining: 2700 });
      clearAudio();
      expect(state.sleepTimer).toBeNull();
    });

    it('"End of chapter" stops within a quarter second of the end, between two position updates', async () => {
      await loadJob(bookJobId);
      vi.useFakeTimers();
      play();
      // The element says where it is about 4 times a second; its clock runs on between updates.
      media.advanceTo(19.6);
      startSleepTimer('chapterEnd');
      media.currentTime = 19.85;
      // The tick finds the end nearer than the next tick and aims a timer of its own at it.
      await vi.advanceTimersByTimeAsync(250);
      expect(state.isPlaying).toBe(true);
      media.currentTime = 20;
      await vi.advanceTimersByTimeAsync(150);
      // Paused then, not at the next tick (or timeupdate), by when the next chapter would have begun.
      expect(state.isPlaying).toBe(false);
      expect(media.pause).toHaveBeenCalled();
      // Put back exactly at the chapter's end, however close the element was.
      expect(media.currentTime).toBe(20);
      expect(state.currentPosition).toBe(20);
      expect(state.sleepTimer).toBeNull();
    });

    it('"End of chapter" does not start without a known end ahead', () => {
      resetPlayer({ streamFrom: bookJobId, duration: 0 });
      startSleepTimer('chapterEnd');
      expect(state.sleepTimer).toBeNull();
    });
  });

  it('navigates chapters', async () => {
    await loadJob(bookJobId);
    jumpToChapter(chapterJobIds[1]);
    expect(state).toMatchObject({ currentPosition: 20, currentChapter: chapterJobIds[1] });
    nextChapter();
    expect(state).toMatchObject({ currentPosition: 40, currentChapter: chapterJobIds[2] });
    nextChapter();
    expect(state.currentPosition).toBe(40);
    previousChapter();
    previousChapter();
    expect(state).toMatchObject({ currentPosition: 0, currentChapter: chapterJobIds[0] });
    media.advanceTo(45);
    expect(state.currentChapter).toBe(chapterJobIds[2]);
  });

  it('never plays a chapter that is not ready yet (a book still converting)', async () => {
    server.use(audioMetadataHandler({ metadata: convertingMetadataFixture({ ready: 1 }) }));
    await loadJob(bookJobId);
    jumpToChapter(chapterJobIds[1]);
    expect(state).toMatchObject({ currentPosition: 0, currentChapter: chapterJobIds[0] });
    nextChapter();
    expect(state).toMatchObject({ currentPosition: 0, currentChapter: chapterJobIds[0] });
    media.advanceTo(20);
    expect(state.currentChapter).toBe(chapterJobIds[0]);
  });

  describe('a book still converting plays chapter by chapter', () => {
    // The first `readyCount` 20 s chapters converted, the others still converting.
    const metadataWith = (readyCount: number) =>
      audioMetadataHandler({ metadata: convertingMetadataFixture({ ready: readyCount }) });
    const firstChapterFile = audioStreamHandler({
      stream: { source_job_id: chapterJobIds[0], file_key: `audio/${chapterJobIds[0]}.mp3` },
    });

    it('goes on to the next converted chapter when one ends, and says when the next is still converting', async () => {
      server.use(metadataWith(2), firstChapterFile);
      await loadJob(bookJobId);
      expect(state).toMatchObject({ streamChapterId: chapterJobIds[0], streamStart: 0 });
      play();
      media.advanceTo(19.9);
      paths.length = 0;
      media.dispatchEvent(new Event('ended'));
      await vi.waitFor(() => expect(state.streamChapterId).toBe(chapterJobIds[1]));
      expect(paths).toContain(`GET /api/v1/audio/${chapterJobIds[1]}/stream`);
      expect(state).toMatchObject({
        streamStart: 20,
        currentPosition: 20,
        currentChapter: chapterJobIds[1],
        isPlaying: true,
      });
      expect(media.seeks.at(-1)).toBe(0);
      // The chapter's own file counts from 0; the book's position from the chapter's start.
      media.advanceTo(5);
      expect(state.currentPosition).toBe(25);

      media.dispatchEvent(new Event('ended'));
      await vi.waitFor(() =>
        expect(state.notice).toBe('The Confession is still converting: it plays as soon as it is ready.'),
      );
      expect(state).toMatchObject({ isPlaying: false, streamChapterId: chapterJobIds[1] });
    });

    it('plays a chapter converted while the one before it played', async () => {
      server.use(metadataWith(1), firstChapterFile);
      await loadJob(bookJobId);
      play();
      media.advanceTo(19.9);
      // Chapter 2 finished converting meanwhile: the metadata asked at the end says so.
      server.use(metadataWith(2));
      media.dispatchEvent(new Event('ended'));
      await vi.waitFor(() => expect(state.streamChapterId).toBe(chapterJobIds[1]));
      expect(state).toMatchObject({ currentPosition: 20, isPlaying: true, notice: null });
    });

    it('waits for a next chapter still converting and plays it by itself once it is converted', async () => {
      vi.useFakeTimers();
      server.use(metadataWith(1), firstChapterFile);
      await loadJob(bookJobId);
      play();
      media.advanceTo(20);
      media.dispatchEvent(new Event('ended'));
      await vi.waitFor(() =>
        expect(state.notice).toBe('The Night Watch is still converting: it plays as soon as it is ready.'),
      );
      expect(state.isPlaying).toBe(false);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(state.isPlaying).toBe(false);
      server.use(metadataWith(2));
      await vi.advanceTimersByTimeAsync(3_000);
      await vi.waitFor(() => expect(state.isPlaying).toBe(true));
      expect(state).toMatchObject({ streamChapterId: chapterJobIds[1], currentPosition: 20, notice: null });
      expect(isWaiting()).toBe(false);
    });

    it('seeks across chapters by switching files, and resumes a saved place in a later chapter', async () => {
      server.use(
        metadataWith(2),
        firstChapterFile,
        progressHandler({ progress: progressFixture({ position_seconds: 27, current_chapter_id: chapterJobIds[1] }) }),
      );
      await loadJob(bookJobId);
      await vi.waitFor(() => expect(state.streamChapterId).toBe(chapterJobIds[1]));
      expect(state).toMatchObject({ currentPosition: 27, streamStart: 20 });
      expect(media.seeks.at(-1)).toBe(7);
      seek(5);
      await vi.waitFor(() => expect(state.streamChapterId).toBe(chapterJobIds[0]));
      expect(state).toMatchObject({ currentPosition: 5, streamStart: 0 });
      expect(media.seeks.at(-1)).toBe(5);
    });
  });

  describe("a converting book's first chapter: its opening first, then the whole chapter", () => {
    // Chapter 1 converts its first 12 s first, as a file of their own; the rest of the book waits.
    const OPENING = SAMPLE_OPENING_SECONDS;
    const openingOnly = () =>
      audioMetadataHandler({ metadata: convertingMetadataFixture({ ready: 0, openingSeconds: OPENING }) });
    // Chapter 1 finished: the metadata says so, and its stream answers the whole chapter's file.
    const chapterOneReady = () => [
      audioMetadataHandler({ metadata: convertingMetadataFixture({ ready: 1 }) }),
      audioStreamHandler({ stream: { file_key: `audio/${chapterJobIds[0]}.mp3` } }),
    ];
    const openingFile = openingStreamHandler();
    const metadataAsks = () => paths.filter((path) => path === `GET /api/v1/audio/${bookJobId}/metadata`).length;
    const stillConverting = 'The Visitor is still converting: it plays on as soon as it is ready.';

    /**
     * Loads the book with only its opening playable and plays it to the opening's end; `meanwhile`
     * is what the server answers from then on.
     */
    async function playToOpeningEnd(meanwhile = [openingOnly()]) {
      server.use(openingOnly(), openingFile);
      await loadJob(bookJobId);
      play();
      media.advanceTo(OPENING);
      server.use(...meanwhile);
      paths.length = 0;
      media.dispatchEvent(new Event('ended'));
    }

    it('loads a book whose only playable audio is its opening, and keeps seeks inside it', async () => {
      server.use(openingOnly(), openingFile);
      expect(await loadJob(bookJobId)).toBe(true);
      expect(state).toMatchObject({
        streamFrom: bookJobId,
        streamChapterId: chapterJobIds[0],
        streamOpeningSeconds: OPENING,
        streamStart: 0,
        duration: OPENING,
        currentChapter: chapterJobIds[0],
        error: null,
      });
      expect(isReady(state)).toBe(true);
      expect(media.src).toBe(SAMPLE_OPENING_URL);
      play();
      expect(state.isPlaying).toBe(true);
      // Past the opening's end there is nothing to play yet.
      seek(30);
      expect(state.currentPosition).toBe(OPENING);
      skip(-10);
      expect(state.currentPosition).toBe(2);
      // Chapter 1 can be chosen; chapter 2 is not converted at all.
      jumpToChapter(chapterJobIds[1]);
      nextChapter();
      expect(state).toMatchObject({ currentPosition: 2, currentChapter: chapterJobIds[0] });
      jumpToChapter(chapterJobIds[0]);
      expect(state).toMatchObject({ currentPosition: 0, currentChapter: chapterJobIds[0] });
    });

    it('when the opening ends and the chapter is ready, plays on in the whole chapter from where the opening ended', async () => {
      // Chapter 1 finished converting while its opening played.
      await playToOpeningEnd(chapterOneReady());
      await vi.waitFor(() => expect(state.streamFrom).toBe(chapterJobIds[0]));
      expect(paths.filter((path) => path.startsWith('GET'))).toEqual([
        `GET /api/v1/audio/${bookJobId}/metadata`,
        `GET /api/v1/audio/${chapterJobIds[0]}/stream`,
      ]);
      expect(state).toMatchObject({
        streamChapterId: chapterJobIds[0],
        streamOpeningSeconds: null,
        streamStart: 0,
        currentPosition: OPENING,
        currentChapter: chapterJobIds[0],
        duration: 20,
        isPlaying: true,
        notice: null,
      });
      // The whole chapter's file starts where the opening did: the element goes on at 0:12.
      expect(media.src).toBe(SAMPLE_AUDIO_URL);
      expect(media.seeks.at(-1)).toBe(OPENING);
      expect(media.play).toHaveBeenCalledTimes(2);
      media.advanceTo(15);
      expect(state.currentPosition).toBe(15);
      // Its end now leads on to chapter 2, as for any chapter.
      seek(19);
      expect(state.currentPosition).toBe(19);
    });

    it('when the chapter still converts, pauses with a notice and plays on by itself once it is ready', async () => {
      vi.useFakeTimers();
      await playToOpeningEnd();
      await vi.waitFor(() => expect(state.notice).toBe(stillConverting));
      expect(state).toMatchObject({ isPlaying: false, streamOpeningSeconds: OPENING });
      expect(isWaiting()).toBe(true);
      // Asked again every 3 s while it converts.
      await vi.advanceTimersByTimeAsync(3_000);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(metadataAsks()).toBe(3);
      expect(state.isPlaying).toBe(false);
      server.use(...chapterOneReady());
      await vi.advanceTimersByTimeAsync(3_000);
      await vi.waitFor(() => expect(state.isPlaying).toBe(true));
      expect(state).toMatchObject({
        streamFrom: chapterJobIds[0],
        streamOpeningSeconds: null,
        currentPosition: OPENING,
        notice: null,
      });
      expect(media.seeks.at(-1)).toBe(OPENING);
      // Playing, it asks no more.
      expect(isWaiting()).toBe(false);
      const asked = metadataAsks();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(metadataAsks()).toBe(asked);
    });

    // Play at the end of the opening is not among them: it means "play on when you can", so the
    // player keeps asking (listening-loop.test.ts).
    it.each([
      ['the reader seeks', () => seek(3)],
      ['another book is loaded', () => void loadJob('2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e')],
      ['the player goes away', () => detachMedia()],
      ['the book is cleared', () => clearAudio()],
    ])('stops asking when %s', async (_, stop) => {
      vi.useFakeTimers();
      await playToOpeningEnd();
      await vi.waitFor(() => expect(isWaiting()).toBe(true));
      stop();
      expect(isWaiting()).toBe(false);
      const asked = metadataAsks();
      // Even once the chapter is ready, nothing switches by itself any more.
      server.use(...chapterOneReady());
      await vi.advanceTimersByTimeAsync(30_000);
      expect(metadataAsks()).toBe(asked);
      expect(paths).not.toContain(`GET /api/v1/audio/${chapterJobIds[0]}/stream`);
    });

    it('an answer that arrives after the reader sought elsewhere is dropped', async () => {
      server.use(openingOnly(), openingFile);
      await loadJob(bookJobId);
      play();
      media.advanceTo(OPENING);
      let release = () => {};
      server.use(
        http.get(
          '*/api/v1/audio/:id/metadata',
          async () => {
            await new Promise<void>((resolve) => (release = resolve));
            return HttpResponse.json(convertingMetadataFixture({ ready: 1 }));
          },
          { once: true },
        ),
      );
      media.dispatchEvent(new Event('ended'));
      await until(() => paths.includes(`GET /api/v1/audio/${bookJobId}/metadata`));
      seek(4);
      paths.length = 0;
      release();
      await flush();
      await flush();
      expect(paths).not.toContain(`GET /api/v1/audio/${chapterJobIds[0]}/stream`);
      expect(state).toMatchObject({ streamFrom: bookJobId, currentPosition: 4, isPlaying: false });
    });
  });

  describe('the library play button', () => {
    it('loads and plays a book that is not loaded', async () => {
      await togglePlayback(bookJobId);
      expect(state).toMatchObject({ currentJobId: bookJobId, isPlaying: true });
      // Stream, metadata, progress, and the speed for new books (no speed is kept for this book).
      expect(paths.filter((p) => p.startsWith('GET'))).toHaveLength(4);
    });

    it('pauses the playing book and resumes it without reloading', async () => {
      await togglePlayback(bookJobId);
      paths.length = 0;
      await togglePlayback(bookJobId);
      expect(state.isPlaying).toBe(false);
      await togglePlayback(bookJobId);
      expect(state.isPlaying).toBe(true);
      expect(paths.filter((p) => p.startsWith('GET'))).toHaveLength(0);
    });

    it('another book is loaded in its place', async () => {
      await togglePlayback(bookJobId);
      const other = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
      await togglePlayback(other);
      expect(state).toMatchObject({ currentJobId: other, isPlaying: true });
    });
  });

  describe('listen again', () => {
    it('starts a finished book over from 0:00 and the first chapter, plays and saves that place', async () => {
      server.use(
        progressHandler({
          progress: progressFixture({ position_seconds: 59, current_chapter_id: chapterJobIds[2], is_completed: true }),
        }),
      );
      await loadJob(bookJobId);
      expect(state.currentPosition).toBe(59);
      expect(await listenAgain(bookJobId)).toBe(true);
      expect(state).toMatchObject({ currentPosition: 0, currentChapter: chapterJobIds[0], isPlaying: true });
      expect(media.currentTime).toBe(0);
      expect(saved().map((b) => b.body)).toEqual([{ position_seconds: 0, current_chapter_id: chapterJobIds[0] }]);
      expect(cache.getQueryData<PlaybackProgressOutput>(getGetProgressQueryKey(bookJobId))?.position_seconds).toBe(0);
    });

    it('loads the book first when it is not the one loaded', async () => {
      server.use(progressHandler({ progress: progressFixture({ position_seconds: 60, is_completed: true }) }));
      expect(await listenAgain(bookJobId)).toBe(true);
      expect(state).toMatchObject({ currentJobId: bookJobId, currentPosition: 0, isPlaying: true });
      expect(saved()).toHaveLength(1);
    });

    it('plays nothing and saves nothing when the book cannot load', async () => {
      server.use(audioStreamHandler({ status: 500 }));
      expect(await listenAgain(bookJobId)).toBe(false);
      expect(state.isPlaying).toBe(false);
      expect(saved()).toHaveLength(0);
    });
  });

  it('resetProgress deletes the record, goes back to the start and leaves the recent list', async () => {
    server.use(progressHandler({ progress: progressFixture({ position_seconds: 25 }) }));
    await loadJob(bookJobId);
    cache.setQueryData(recentKey, [progressFixture({ position_seconds: 25 })]);
    await resetProgress();
    expect(bodies.filter((b) => b.method === 'DELETE').map((b) => b.path)).toEqual([`/api/v1/progress/${bookJobId}`]);
    expect(state.currentPosition).toBe(0);
    expect(recentList()).toEqual([]);
    expect(cache.getQueryData(getGetProgressQueryKey(bookJobId))).toBeNull();
    expect(state.currentChapter).toBe(chapterJobIds[0]);
  });

  it('clearAudio resets all playback state and empties the element', async () => {
    await loadJob(bookJobId);
    play();
    setVolume(0.5);
    clearAudio();
    expect(state).toMatchObject({
      isPlaying: false,
      currentJobId: null,
      streamFrom: null,
      volume: 1,
    });
    expect(loadedMetadata()).toBeNull();
    expect(media.removeAttribute).toHaveBeenCalledWith('src');
  });

  it('a slow, superseded load does not overwrite the newer one', async () => {
    server.use(
      http.get(
        '*/api/v1/audio/:id/stream',
        async () => {
          await delay(50);
          return HttpResponse.json({ bogus: true });
        },
        { once: true },
      ),
    );
    const first = loadJob('2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e');
    await loadJob(bookJobId);
    await first;
    expect(state).toMatchObject({ currentJobId: bookJobId, error: null, streamFrom: bookJobId });
    expect(loadedStreamUrl()).toBe(SAMPLE_AUDIO_URL);
  });

  it('drives the Media Session', async () => {
    const actions = new Map<string, MediaSessionActionHandler | null>();
    const session = {
      metadata: null as MediaMetadata | null,
      playbackState: 'none' as MediaSessionPlaybackState,
      setActionHandler: (action: string, handler: MediaSessionActionHandler | null) => actions.set(action, handler),
      setPositionState: vi.fn(),
    } as unknown as MediaSession;
    class Metadata {
      constructor(readonly init: MediaMetadataInit) {}
    }
    const asked: string[] = [];
    const stop = watchMediaSession(session, Metadata as unknown as typeof MediaMetadata, async (jobId) => {
      asked.push(jobId);
      return { src: `blob:cover-of-${jobId}`, type: 'image/svg+xml' };
    });
    await loadJob(bookJobId);
    await flush();
    // The book's cover is the artwork, asked for once.
    expect((session.metadata as unknown as Metadata).init).toEqual({
      title: 'The Tell-Tale Heart',
      artist: 'Lectio',
      album: 'The Visitor',
      artwork: [{ src: `blob:cover-of-${bookJobId}`, sizes: '400x600', type: 'image/svg+xml' }],
    });
    expect(asked).toEqual([bookJobId]);
    actions.get('play')?.({ action: 'play' });
    expect(state.isPlaying).toBe(true);
    actions.get('seekforward')?.({ action: 'seekforward' });
    expect(state.currentPosition).toBe(10);
    actions.get('seekto')?.({ action: 'seekto', seekTime: 33 });
    expect(state.currentPosition).toBe(33);
    actions.get('nexttrack')?.({ action: 'nexttrack' });
    expect(state.currentPosition).toBe(40);
    actions.get('previoustrack')?.({ action: 'previoustrack' });
    expect(state.currentPosition).toBe(20);
    actions.get('pause')?.({ action: 'pause' });
    await flush();
    expect(session.playbackState).toBe('paused');
    // WebKit forgets the buttons once playback stops: they are set again when it starts.
    for (const action of actions.keys()) actions.set(action, null);
    play();
    await flush();
    expect([...actions.values()].every((handler) => typeof handler === 'function')).toBe(true);
    pause();
    stop();
    expect(actions.get('play')).toBeNull();
  });
});
