import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ExportBook } from '../books/source';
import {
  chaptersDocument,
  episodeTranscript,
  partsOf,
  transcriptVtt,
  vttTimestamp,
  vttText,
} from './episode-companions';
import { createEpisodeLinks, type EpisodeFile } from './episode-links';
import { readWebVtt } from '../testing/webvtt';

const chapter = (order: number, start: number, duration: number, fileKey = `audio/c${order}.mp3`) => ({
  order,
  title: `Stave ${order}`,
  start,
  duration,
  fileKey,
});

const book = (chapters: ExportBook['chapters']): ExportBook => ({
  id: 'b0f8c3a6-2d2a-4c54-9d56-5d7b7d1f2a10',
  userId: 'u',
  title: 'Harbour Songs',
  author: 'Ann Reed',
  version: '2026-01-02T03:04:05.000Z',
  audioKey: 'audio/book.mp3',
  duration: chapters.reduce((sum, c) => sum + c.duration, 0),
  chapters,
  cover: null,
});

describe('an episode’s chapters', () => {
  it('are its own chapter from 0 when the chapter has its own audio', () => {
    const b = book([chapter(1, 0, 61.2344), chapter(2, 61.2344, 30.5)]);
    const parts = partsOf(b, b.chapters[1]!);
    expect(parts).toEqual([{ chapter: b.chapters[1], start: 0 }]);
    expect(JSON.parse(chaptersDocument(b, b.chapters[1]!))).toEqual({
      version: '1.2.0',
      title: 'Harbour Songs: Stave 2',
      podcastName: 'Harbour Songs',
      author: 'Ann Reed',
      chapters: [{ startTime: 0, endTime: 30.5, title: 'Stave 2' }],
    });
  });

  it('are every chapter of the book at its start when the episode’s audio is the combined file', () => {
    const b = book([
      chapter(1, 0, 12.3456, 'audio/book.mp3'),
      chapter(2, 12.3456, 20, 'audio/book.mp3'),
      chapter(3, 32.3456, 7.25, 'audio/book.mp3'),
    ]);
    expect(partsOf(b, b.chapters[0]!).map((p) => p.start)).toEqual([0, 12.3456, 32.3456]);
    const doc = JSON.parse(chaptersDocument(b, b.chapters[0]!)) as {
      title: string;
      chapters: { startTime: number; endTime: number; title: string }[];
    };
    expect(doc.title).toBe('Harbour Songs: Stave 1');
    expect(doc.chapters.map((c) => c.title)).toEqual(['Stave 1', 'Stave 2', 'Stave 3']);
    for (const [i, c] of b.chapters.entries()) {
      expect(Math.abs(doc.chapters[i]!.startTime - c.start)).toBeLessThan(0.001);
      expect(Math.abs(doc.chapters[i]!.endTime - (c.start + c.duration))).toBeLessThan(0.001);
    }
  });

  it('leave out the author the book does not name', () => {
    const b = { ...book([chapter(1, 0, 5)]), author: null };
    const doc = JSON.parse(chaptersDocument(b, b.chapters[0]!)) as { title: string };
    expect(doc).not.toHaveProperty('author');
    expect(doc.title).toBe('Harbour Songs');
  });
});

describe('an episode’s transcript (WebVTT)', () => {
  it('writes timestamps as hh:mm:ss.ttt, rounded to the millisecond', () => {
    expect(vttTimestamp(0)).toBe('00:00:00.000');
    expect(vttTimestamp(3661.2345)).toBe('01:01:01.235');
    expect(vttTimestamp(59.9996)).toBe('00:01:00.000');
    expect(vttTimestamp(100 * 3600)).toBe('100:00:00.000');
    expect(vttTimestamp(-1)).toBe('00:00:00.000');
  });

  it('keeps any text one line of cue text with &, < and > escaped', () => {
    expect(vttText('A & B <i>x</i> --> y\n\nnext\u0007 line\u2028end')).toBe(
      'A &amp; B &lt;i&gt;x&lt;/i&gt; --&gt; y next line end',
    );
  });

  it('is one cue per sentence in time order, offset to where its chapter starts, read back by a strict parser', () => {
    const vtt = transcriptVtt([
      {
        start: 0,
        sentences: [
          { start: 0, end: 1.2, text: 'The lamp was lit at dusk.' },
          { start: 1.2, end: 2.5, text: 'Ships <b>came</b> home & the keeper slept --> dawn.' },
        ],
      },
      {
        start: 62.5,
        sentences: [
          { start: 0, end: 0, text: 'A cue of no length still lasts a millisecond.' },
          { start: 1, end: 2, text: '   \n ' },
          { start: 3600, end: 3601.5, text: 'Ünïcödé 🐋 “quotes”.' },
        ],
      },
    ]);
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    for (const line of vtt.split('\n').filter((l) => l.includes('-->'))) {
      expect(line).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}$/);
    }
    expect(Buffer.from(vtt, 'utf8').toString('utf8')).toBe(vtt);
    expect(readWebVtt(vtt)).toEqual([
      { id: null, start: 0, end: 1.2, text: 'The lamp was lit at dusk.' },
      { id: null, start: 1.2, end: 2.5, text: 'Ships <b>came</b> home & the keeper slept --> dawn.' },
      { id: null, start: 62.5, end: 62.501, text: 'A cue of no length still lasts a millisecond.' },
      { id: null, start: 3662.5, end: 3664, text: 'Ünïcödé 🐋 “quotes”.' },
    ]);
  });

  it('of an episode whose audio is the combined file holds every chapter’s sentences at its start there', async () => {
    const b = book([chapter(1, 0, 10, 'audio/book.mp3'), chapter(2, 10, 5.5, 'audio/book.mp3')]);
    const asked: number[] = [];
    const vtt = await episodeTranscript(b, b.chapters[1]!, (order) => {
      asked.push(order);
      return Promise.resolve({ chapterCount: 2, sentences: [{ start: 0.5, end: 4, text: `Chapter ${order}.` }] });
    });
    expect(asked).toEqual([1, 2]);
    expect(readWebVtt(vtt).map((c) => [c.start, c.end, c.text])).toEqual([
      [0.5, 4, 'Chapter 1.'],
      [10.5, 14, 'Chapter 2.'],
    ]);
    const own = book([chapter(1, 0, 10), chapter(2, 10, 5.5)]);
    const alone = await episodeTranscript(own, own.chapters[1]!, (order) =>
      Promise.resolve({ chapterCount: 2, sentences: [{ start: 0.5, end: 4, text: `Chapter ${order}.` }] }),
    );
    expect(readWebVtt(alone).map((c) => [c.start, c.end, c.text])).toEqual([[0.5, 4, 'Chapter 2.']]);
  });

  it('of a book read as one job is its one read-along, the whole combined file’s', async () => {
    const b = book([chapter(1, 0, 10, 'audio/book.mp3'), chapter(2, 10, 5.5, 'audio/book.mp3')]);
    const asked: number[] = [];
    const vtt = await episodeTranscript(b, b.chapters[1]!, (order) => {
      asked.push(order);
      return Promise.resolve({
        chapterCount: 1,
        sentences: [
          { start: 0.5, end: 4, text: 'Opening.' },
          { start: 12, end: 15, text: 'Later on.' },
        ],
      });
    });
    expect(asked).toEqual([1]);
    expect(readWebVtt(vtt).map((c) => [c.start, c.end, c.text])).toEqual([
      [0.5, 4, 'Opening.'],
      [12, 15, 'Later on.'],
    ]);
  });

  it('is a header alone for a chapter without sentences', () => {
    expect(transcriptVtt([{ start: 0, sentences: [] }])).toBe('WEBVTT\n');
    expect(readWebVtt('WEBVTT\n')).toEqual([]);
  });
});

describe('episode links', () => {
  const links = createEpisodeLinks(Buffer.alloc(32, 7));
  const base = {
    feedId: '6f1c2d9e-1111-4a4a-8b8b-000000000001',
    jobId: 'b0f8c3a6-2d2a-4c54-9d56-5d7b7d1f2a10',
    version: '2026-01-02T03:04:05.000Z',
  };
  const files: EpisodeFile['file'][] = [
    1,
    2,
    'cover',
    { chapter: 1, companion: 'chapters' },
    { chapter: 1, companion: 'transcript' },
    { chapter: 2, companion: 'chapters' },
    { chapter: 2, companion: 'transcript' },
  ];
  const signatureOf = (path: string) => /\/([A-Za-z0-9_-]{43})\.(?:mp3|jpg|json|vtt)$/.exec(path)![1]!;

  it('name each file by its own path', () => {
    const sig = '[A-Za-z0-9_-]{43}';
    const book = `^/feeds/episodes/${base.feedId}/${base.jobId}`;
    expect(links.path({ ...base, file: 3 })).toMatch(new RegExp(`${book}/3/${sig}\\.mp3$`));
    expect(links.path({ ...base, file: 'cover' })).toMatch(new RegExp(`${book}/cover/${sig}\\.jpg$`));
    expect(links.path({ ...base, file: { chapter: 3, companion: 'chapters' } })).toMatch(
      new RegExp(`${book}/3/chapters/${sig}\\.json$`),
    );
    expect(links.path({ ...base, file: { chapter: 3, companion: 'transcript' } })).toMatch(
      new RegExp(`${book}/3/transcript/${sig}\\.vtt$`),
    );
  });

  it('open only the file they were signed for', () => {
    const signatures = files.map((file) => signatureOf(links.path({ ...base, file })));
    expect(new Set(signatures).size).toBe(files.length);
    for (const [i, file] of files.entries()) {
      for (const [j, other] of files.entries()) {
        expect(links.verify({ ...base, file: other }, signatures[i]!), `${String(i)} as ${String(j)}`).toBe(i === j);
      }
      // Another version of the book, another feed, another book, another secret: never.
      expect(links.verify({ ...base, version: '2026-01-03T00:00:00.000Z', file }, signatures[i]!)).toBe(false);
      expect(links.verify({ ...base, feedId: base.jobId, file }, signatures[i]!)).toBe(false);
      expect(links.verify({ ...base, jobId: base.feedId, file }, signatures[i]!)).toBe(false);
      expect(createEpisodeLinks(Buffer.alloc(32, 8)).verify({ ...base, file }, signatures[i]!)).toBe(false);
    }
    expect(links.verify({ ...base, file: 1 }, 'x'.repeat(43))).toBe(false);
    expect(links.verify({ ...base, file: 1 }, '')).toBe(false);
  });

  it('keep the audio’s and the cover’s links as they were signed before chapters and transcripts', () => {
    // The audio of chapter 1 and the cover sign "1" and "cover": feeds already subscribed keep their enclosures.
    const key = createHmac('sha256', Buffer.alloc(32, 7)).update('lectio feed episode links v1').digest();
    for (const file of [1, 'cover'] as const) {
      const expected = createHmac('sha256', key)
        .update(`${base.feedId}\n${base.jobId}\n${file}\n${base.version}`)
        .digest('base64url');
      expect(signatureOf(links.path({ ...base, file }))).toBe(expected);
    }
  });
});
