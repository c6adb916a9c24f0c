import { QueryClient } from '@tanstack/react-query';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureApi } from '../../api/http';
import { preferencesHandler } from '../../mocks/account';
import { bookJobId } from '../../mocks/audio';
import { errorBodyFixture } from '../../mocks/fixtures';
import { handlers } from '../../mocks/handlers';
import { loadJob, resetPlayer, setPlaybackRate } from './controls';
import { attachMedia } from './media';
import { configurePlayer } from './environment';
import { attachPlayer, state, type MediaElement } from './store';
import { FakeMedia } from '../../testing/fake-media';

const server = setupServer(...handlers);
const asked: string[] = [];
let media: FakeMedia & MediaElement;
let stored: Map<string, string>;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
  server.events.on('request:start', ({ request }) => {
    asked.push(`${request.method} ${new URL(request.url).pathname}`);
  });
});
beforeEach(() => {
  stored = new Map();
  configurePlayer({
    storage: () => ({ getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) }),
  });
  resetPlayer();
  attachPlayer(new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  media = new FakeMedia() as FakeMedia & MediaElement;
  attachMedia(media);
  asked.length = 0;
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const askedForPreferences = () => asked.filter((a) => a === 'GET /api/v1/auth/preferences').length;

describe('the speed a book starts at', () => {
  it("is the account's speed for new books when the listener never set one for this book", async () => {
    server.use(preferencesHandler(null, {}, 1.25));
    expect(await loadJob(bookJobId)).toBe(true);
    expect(state.playbackRate).toBe(1.25);
    expect(media.playbackRate).toBe(1.25);
    expect(askedForPreferences()).toBe(1);
    // Not remembered for the book: a later change of the account's speed still applies to it.
    expect(stored.has(`lectio.playbackRate.${bookJobId}`)).toBe(false);
  });

  it("is the book's own speed once the listener picked one, whatever the account's speed", async () => {
    server.use(preferencesHandler(null, {}, 1.25));
    await loadJob(bookJobId);
    setPlaybackRate(0.75);
    resetPlayer();
    asked.length = 0;
    expect(await loadJob(bookJobId)).toBe(true);
    expect(state.playbackRate).toBe(0.75);
    expect(media.playbackRate).toBe(0.75);
    expect(askedForPreferences()).toBe(0);
  });

  it('is 1× when no speed is saved for new books, or the preferences cannot be read', async () => {
    server.use(preferencesHandler(null));
    expect(await loadJob(bookJobId)).toBe(true);
    expect(state.playbackRate).toBe(1);

    resetPlayer();
    attachPlayer(new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    server.use(preferencesHandler(null, { status: 503, body: errorBodyFixture('Try again shortly') }));
    expect(await loadJob(bookJobId)).toBe(true);
    expect(state.playbackRate).toBe(1);
    expect(state.error).toBeNull();
  });
});
