import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getGetProgressQueryKey } from '../../api/gen/endpoints/progress';
import type { ProgressUpdate } from '../../api/gen/model';
import { configureApi } from '../../api/http';
import { bookJobId, chapterJobIds, progressFixture, progressHandler, saveProgressHandler } from '../../mocks/audio';
import { acceptOffer, declineOffer, holdsPlace, keepUnsentPlace, sendUnsentPlaces } from './queue';
import { kept, resetKept, UNSENT_KEY } from './state';
import { watchKeptBooks } from './watch';

const server = setupServer();
const saves: ProgressUpdate[] = [];
let client: QueryClient;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
});
beforeEach(() => {
  resetKept(localStorage);
  client = new QueryClient();
  saves.length = 0;
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The server's saved place of the book, saved at `updatedAt`; PUTs are recorded in `saves`. */
function serverPlace(position: number, updatedAt: string) {
  server.use(
    progressHandler({ progress: progressFixture({ position_seconds: position, updated_at: updatedAt }) }),
    saveProgressHandler({ onSave: (update) => saves.push(update) }),
  );
}

const at = (iso: string) => Date.parse(iso);
const place = (position: number, madeAt: string) => ({
  jobId: bookJobId,
  position,
  chapterId: chapterJobIds[1],
  madeAt: at(madeAt),
});

describe('places made offline', () => {
  it('keeps the latest place of each book on the device, across a reload', () => {
    keepUnsentPlace(place(40, '2025-03-01T10:00:10Z'));
    keepUnsentPlace(place(30, '2025-03-01T10:00:05Z'));
    expect(kept.unsent[bookJobId]?.position).toBe(40);
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));

    // A new start reads what was written.
    resetKept(localStorage);
    expect(kept.unsent[bookJobId]).toEqual(place(50, '2025-03-01T10:00:20Z'));
    expect(JSON.parse(localStorage.getItem(UNSENT_KEY) ?? '{}')).toHaveProperty(bookJobId);
    expect(holdsPlace(bookJobId)).toBe(true);
  });

  it('sends the place when the server holds an older one, and forgets it once sent', async () => {
    serverPlace(25, '2025-03-01T09:00:00Z');
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));
    await sendUnsentPlaces(client);
    expect(saves).toEqual([expect.objectContaining({ position_seconds: 50, current_chapter_id: chapterJobIds[1] })]);
    expect(kept.unsent).toEqual({});
    expect(localStorage.getItem(UNSENT_KEY)).toBeNull();
    expect(client.getQueryData(getGetProgressQueryKey(bookJobId))).toMatchObject({ position_seconds: 50 });
    expect(holdsPlace(bookJobId)).toBe(false);
  });

  it('offers a newer place from another device instead of overwriting it', async () => {
    serverPlace(724, '2025-03-01T11:00:00Z');
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));
    await sendUnsentPlaces(client);
    expect(saves).toEqual([]);
    expect(kept.offers[bookJobId]).toMatchObject({ position: 724, savedAt: '2025-03-01T11:00:00Z' });
    // Saves of that book wait while the offer stands.
    expect(holdsPlace(bookJobId)).toBe(true);

    expect(acceptOffer(client, bookJobId)).toMatchObject({ position: 724 });
    expect(kept.offers).toEqual({});
    expect(kept.unsent).toEqual({});
    await sendUnsentPlaces(client);
    expect(saves).toEqual([]);
  });

  it("sends this device's place after all when the listener keeps it", async () => {
    serverPlace(724, '2025-03-01T11:00:00Z');
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));
    await sendUnsentPlaces(client);
    await declineOffer(client, bookJobId);
    expect(saves).toEqual([expect.objectContaining({ position_seconds: 50 })]);
    expect(kept.offers).toEqual({});
    expect(kept.unsent).toEqual({});
  });

  it('drops a place the server already has', async () => {
    serverPlace(50.4, '2025-03-01T11:00:00Z');
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));
    await sendUnsentPlaces(client);
    expect(saves).toEqual([]);
    expect(kept.offers).toEqual({});
    expect(kept.unsent).toEqual({});
  });

  it('keeps the place while the server cannot be reached', async () => {
    server.use(http.get('*/api/v1/progress/:jobId', () => HttpResponse.error()));
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));
    await sendUnsentPlaces(client);
    expect(kept.unsent[bookJobId]?.position).toBe(50);
    expect(kept.sending).toBe(false);
  });

  it('sends when the app starts online and when the browser comes back online', async () => {
    serverPlace(25, '2025-03-01T09:00:00Z');
    keepUnsentPlace(place(50, '2025-03-01T10:00:20Z'));
    const target = new EventTarget();
    const stop = watchKeptBooks(client, target as unknown as Window);
    await until(() => saves.length === 1);
    expect(saves[0]?.position_seconds).toBe(50);

    keepUnsentPlace(place(60, '2025-03-01T10:00:30Z'));
    target.dispatchEvent(new Event('online'));
    await until(() => saves.length === 2);
    expect(saves[1]?.position_seconds).toBe(60);
    stop();

    keepUnsentPlace(place(70, '2025-03-01T10:00:40Z'));
    target.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(saves).toHaveLength(2);
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}
