import type { ExportBook } from '../books/source';
import { coverJpegKey } from '../books/storage-keys';
import { readAll, tempStorage } from '../testing/audio';
import { createCoverMaker } from './cover';

// A JPEG's first bytes: enough for the maker to take an uploaded cover as it is.
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9,
]);

const book: ExportBook = {
  id: '00000000-0000-4000-8000-00000000c0de',
  userId: 'ann',
  title: 'Bartleby',
  author: null,
  version: '1',
  audioKey: 'jobs/00000000-0000-4000-8000-00000000c0de/audio.mp3',
  duration: 10,
  chapters: [],
  cover: { key: 'jobs/00000000-0000-4000-8000-00000000c0de/cover', contentType: 'image/jpeg' },
};

describe("a book's cover for its tags and feeds", () => {
  it('is read from the store in one call each, once kept, and never asked about first', async () => {
    const { storage, cleanup } = await tempStorage();
    try {
      await storage.write(book.cover!.key, JPEG);
      // The calls the maker makes (not those a call of the local store makes of itself).
      const calls: string[] = [];
      let inside = false;
      for (const method of ['stat', 'read', 'readSlice'] as const) {
        const real = storage[method].bind(storage) as (...args: unknown[]) => unknown;
        (storage as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          if (inside) return real(...args);
          calls.push(`${method} ${String(args[0])}`);
          inside = true;
          const result = real(...args);
          if (result instanceof Promise) return result.finally(() => (inside = false));
          inside = false;
          return result;
        };
      }
      const covers = createCoverMaker({
        storage,
        ffmpeg: () => {
          throw new Error('an uploaded JPEG needs no converting');
        },
        scratch: {} as never,
      });
      // The first time: the JPEG it keeps is not there yet; the uploaded cover is, and is kept as it is.
      expect(await covers.jpeg(book)).toEqual(JPEG);
      expect(calls).toEqual([`readSlice ${coverJpegKey(book.id)}`, `readSlice ${book.cover!.key}`]);
      expect(await readAll(storage.read(coverJpegKey(book.id)))).toEqual(JPEG);
      calls.length = 0;
      // Then: the kept JPEG, in one call.
      expect(await covers.jpeg(book)).toEqual(JPEG);
      expect(calls).toEqual([`readSlice ${coverJpegKey(book.id)}`]);
    } finally {
      await cleanup();
    }
  });
});
