import { afterEach, describe, expect, it } from 'vitest';
import { longPage, makeEpub3 } from '../testing/books';
import { planBook } from './chapters';
import { IngestError } from './errors';
import { createDocumentReader, type DocumentReader } from './reader';

let reader: DocumentReader | undefined;
afterEach(async () => {
  await reader?.close();
});

describe('the document reader (a thread of its own)', () => {
  it("reads a book and refuses a bad one with the format reader's own message", async () => {
    reader = createDocumentReader();
    const book = await reader.readUpload(makeEpub3(), 'book.epub');
    expect(book.title).toBe('The Lighthouse');
    expect(book.chapters?.map((c) => c.title)).toEqual(['The Keeper', 'The Storm', 'The Morning']);
    await expect(reader.readUpload(Buffer.from('MZ not a zip'), 'book.epub')).rejects.toMatchObject({
      name: 'IngestError',
      kind: 'unsupported',
    });
    // The thread goes on serving after a refusal.
    expect((await reader.readUpload(Buffer.from('# Title\n\nSome words here.'), 'notes.md')).format).toBe('markdown');
  });

  it('refuses a file that needs more memory than a book does, and serves the next one', async () => {
    reader = createDocumentReader({ maxHeapMb: 64 });
    const refused = await reader.readUpload(Buffer.from(longPage(8_000_000)), 'huge.html').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestError);
    expect((refused as IngestError).message).toMatch(/^The file is too large or too complex to read/);
    expect((await reader.readUpload(makeEpub3(), 'book.epub')).format).toBe('epub');
  });

  it('refuses a file it cannot read within its time, and ends the thread that was reading it', async () => {
    reader = createDocumentReader({ timeoutMs: 1 });
    const refused = await reader.readUpload(makeEpub3(), 'book.epub').catch((e: unknown) => e);
    expect((refused as IngestError).kind).toBe('invalid');
    expect((refused as IngestError).message).toMatch(/^The file is too large or too complex to read/);
  });

  it("finds a long text's chapters in its thread as planBook does in the server's", async () => {
    reader = createDocumentReader();
    const text = Array.from(
      { length: 3 },
      (_, i) => `Chapter ${i + 1}\n\n${'The tide came in over the sand. '.repeat(400)}`,
    ).join('\n\n');
    expect(await reader.planBook('Tides', text)).toEqual(planBook('Tides', text));
    expect((await reader.planBook('Tides', text)).kind).toBe('book');
  });

  it('ends its thread when idle', async () => {
    reader = createDocumentReader({ idleMs: 50 });
    await reader.readUpload(makeEpub3(), 'book.epub');
    for (let i = 0; i < 100 && reader.running; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(reader.running).toBe(false);
  });
});
