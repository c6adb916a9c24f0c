import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../api/http';
import { bookJobId } from '../../mocks/audio';
import { handlers } from '../../mocks/handlers';
import { loadJob, resetPlayer, seek } from './controls';
import { resetConnection } from './connection';
import { attachDeviceKeeping, saveNow } from './saving';
import { attachPlayer, type UnsentPlace } from './store';

const server = setupServer(...handlers);
const puts: string[] = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'PUT') puts.push(new URL(request.url).pathname);
  });
});
afterEach(() => {
  server.resetHandlers();
  resetConnection();
});
afterAll(() => server.close());

/** A queue that records what it is handed; `holding` says whether it takes every save. */
function fakeQueue(holding = false) {
  const kept: UnsentPlace[] = [];
  return {
    kept,
    queue: {
      holds: () => holding,
      keep: (place: UnsentPlace) => void kept.push(place),
      keptOnDevice: () => false,
      forgetAccount: async () => undefined,
    },
  };
}

let detach: () => void = () => {};
beforeEach(async () => {
  resetPlayer();
  attachPlayer(new QueryClient());
  puts.length = 0;
  expect(await loadJob(bookJobId)).toBe(true);
});
afterEach(() => detach());

describe('saving the place with a queue on the device', () => {
  it('hands the queue a save the server cannot be reached for', async () => {
    const { kept, queue } = fakeQueue();
    detach = attachDeviceKeeping(queue);
    server.use(http.put('*/api/v1/progress/:jobId', () => HttpResponse.error()));
    seek(30);
    const before = Date.now();
    await saveNow();
    expect(kept).toEqual([expect.objectContaining({ jobId: bookJobId, position: 30 })]);
    expect(kept[0]!.madeAt).toBeGreaterThanOrEqual(before);
    // Kept, so the same place is not handed over twice.
    await saveNow();
    expect(kept).toHaveLength(1);
  });

  it('leaves a save the server answered with an error to the next try', async () => {
    const { kept, queue } = fakeQueue();
    detach = attachDeviceKeeping(queue);
    server.use(http.put('*/api/v1/progress/:jobId', () => HttpResponse.json({ detail: 'Bad' }, { status: 400 })));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    seek(30);
    await saveNow();
    expect(kept).toEqual([]);
    expect(puts).toHaveLength(1);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('sends nothing while the queue holds the book: the queue sends it', async () => {
    const { kept, queue } = fakeQueue(true);
    detach = attachDeviceKeeping(queue);
    seek(42);
    await saveNow();
    expect(puts).toEqual([]);
    expect(kept).toEqual([expect.objectContaining({ jobId: bookJobId, position: 42 })]);
  });

  it('saves to the server as before once the queue is taken back', async () => {
    const { kept, queue } = fakeQueue(true);
    attachDeviceKeeping(queue)();
    seek(42);
    await saveNow();
    expect(kept).toEqual([]);
    expect(puts).toEqual([`/api/v1/progress/${bookJobId}`]);
  });
});
