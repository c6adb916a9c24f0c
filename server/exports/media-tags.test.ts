import type { BookSource, ExportBook } from '../books/source';
import { createListCache } from '../jobs/list-cache';
import { createMediaTagger } from './media-tags';

// A crowd of listeners reads ranges of more files than the tags kept: a range into the audio needs
// only the tag's length, which is kept for many more files, so it makes no tag.
let built = 0;
const book = (id: string): ExportBook => ({
  id,
  userId: 'ann',
  title: `Book ${id}`,
  author: null,
  version: '1',
  audioKey: `jobs/${id}/audio.mp3`,
  duration: 10,
  chapters: [],
  cover: null,
});
const deps = {
  jobs: {
    byOutputKey: (key: string) => Promise.resolve({ id: key.split('/')[1]!, userId: 'ann', parentJobId: null }),
  },
  books: {
    book: (_user: string, id: string) => {
      built += 1;
      return Promise.resolve(book(id));
    },
  } as Pick<BookSource, 'book'> as BookSource,
  covers: { jpeg: () => Promise.resolve(Buffer.alloc(64, 1)) },
};
beforeEach(() => {
  built = 0;
});

describe('the media tagger under many files', () => {
  it("answers a known file's tag length without making its tag again", async () => {
    const tagger = createMediaTagger(deps);
    const keys = Array.from({ length: 300 }, (_, i) => `jobs/${i}/audio.mp3`);
    const lengths = new Map<string, number>();
    for (const key of keys) lengths.set(key, (await tagger.prefixFor(key))!.length);
    expect(built).toBe(300);

    // The first files' tags are no longer kept (200 at most); their lengths are.
    const again = await tagger.prefixFor(keys[0]!);
    expect(again?.length).toBe(lengths.get(keys[0]!));
    expect(built).toBe(300);
    // An answer that sends the tag makes it then.
    const bytes = await again!.bytes();
    expect(bytes.length).toBe(again!.length);
    expect(built).toBe(301);
  });
});

describe("the media tagger and its owner's changes", () => {
  it('keeps a tag past the minute while no change to its owner is announced, and makes it again after one', async () => {
    let clock = 0;
    const changes = createListCache();
    changes.setListening(true);
    const tagger = createMediaTagger({ ...deps, changes, now: () => clock });
    const key = 'jobs/1/audio.mp3';
    const first = (await tagger.prefixFor(key))!.length;
    clock = 10 * 60_000;
    expect((await tagger.prefixFor(key))!.length).toBe(first);
    expect(built).toBe(1);
    // Ann renamed a book: what was made from her books is made again.
    changes.changed('ann');
    await tagger.prefixFor(key);
    expect(built).toBe(2);
    // Changes that may go unannounced: a minute at most.
    changes.setListening(false);
    clock += 60_000;
    await tagger.prefixFor(key);
    expect(built).toBe(3);
  });
});
