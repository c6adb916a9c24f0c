import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../storage/local';
import { readWhole } from './read';
import { readBookText } from './text';
import { parseTimingMap, readTimingMap } from './timing';

const dir = mkdtempSync(path.join(tmpdir(), 'lectio-books-'));
const storage = new LocalFileStorage(dir);
const enc = (text: string) => new TextEncoder().encode(text);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sentence = { start: 0, end: 1.5, char_start: 0, char_end: 12 };
const second = {
  start: 1.5,
  end: 3,
  char_start: 13,
  char_end: 26,
  words: [{ start: 1.5, end: 2, char_start: 13, char_end: 17 }],
};

describe("a book's timing map, read by its one schema", () => {
  it('reads the array the conversion writes, words included, and the wrapped form of earlier fixtures', () => {
    expect(parseTimingMap(JSON.stringify([sentence, second]))).toEqual([sentence, second]);
    expect(parseTimingMap(JSON.stringify({ sentences: [sentence] }))).toEqual([sentence]);
  });

  it('refuses what is not a timing map rather than placing sentences wrongly', () => {
    expect(parseTimingMap('not json')).toBeNull();
    expect(parseTimingMap(JSON.stringify({ chapters: [] }))).toBeNull();
    expect(parseTimingMap(JSON.stringify([{ ...sentence, char_start: -1 }]))).toBeNull();
    expect(parseTimingMap(JSON.stringify([{ start: 0, end: 1 }]))).toBeNull();
  });

  it('reads the map stored beside an MP3, and none when it was never written', async () => {
    await storage.write('jobs/a/audio.mp3.timing.json', enc(JSON.stringify([sentence])));
    expect(await readTimingMap(storage, 'jobs/a/audio.mp3')).toEqual([sentence]);
    expect(await readTimingMap(storage, 'jobs/none/audio.mp3')).toBeNull();
  });
});

describe("a book's text with its timing map", () => {
  const book = { inputFileKey: 'jobs/b/source.txt', outputFileKey: 'jobs/b/audio.mp3' };

  it('gives the text and its sentences in time order', async () => {
    await storage.write(book.inputFileKey, enc('The lamp lit. The sea rose high.'));
    await storage.write(`${book.outputFileKey}.timing.json`, enc(JSON.stringify([second, sentence])));
    expect(await readBookText(storage, book)).toEqual({
      text: 'The lamp lit. The sea rose high.',
      timing: [sentence, second],
    });
  });

  it('is absent while the book has no audio, or when its text or map is missing or unreadable', async () => {
    expect(await readBookText(storage, { ...book, outputFileKey: null })).toBeNull();
    expect(await readBookText(storage, { ...book, inputFileKey: 'jobs/b/gone.txt' })).toBeNull();
    await storage.write('jobs/c/audio.mp3.timing.json', enc('{"broken":'));
    expect(await readBookText(storage, { ...book, outputFileKey: 'jobs/c/audio.mp3' })).toBeNull();
  });
});

describe('reading a whole stored file', () => {
  it('joins its chunks into one buffer that owns exactly the file', async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => i % 251);
    await storage.write('jobs/d/audio.mp3', bytes);
    const whole = await readWhole(storage, 'jobs/d/audio.mp3');
    expect(whole.equals(Buffer.from(bytes))).toBe(true);
    expect(whole.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('fails for a file that is not stored', async () => {
    await expect(readWhole(storage, 'jobs/none/source.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
