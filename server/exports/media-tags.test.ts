import type { BookSource, ExportBook } from '../books/source';
import { createMediaTagger } from './media-tags';

// A crowd of listeners reads ranges of more files than the tags kept: a range into the audio needs
// only the tag's length, which is kept for many more files, so it makes no tag.
describe('the media tagger under many files', () => {
  it("answers a known file's tag length without making its tag again", async () => {
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
    const tagger = createMediaTagger({
      jobs: { byOutputKey: (key) => Promise.resolve({ id: key.split('/')[1]!, userId: 'ann', parentJobId: null }) },
      books: {
        book: (_user: string, id: string) => {
          built += 1;
          return Promise.resolve(book(id));
        },
      } as Pick<BookSource, 'book'> as BookSource,
      covers: { jpeg: () => Promise.resolve(Buffer.alloc(64, 1)) },
    });
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
