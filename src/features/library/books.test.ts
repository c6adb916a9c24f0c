import { describe, expect, it } from 'vitest';
import { JobSummary, PlaybackProgress } from '../../api/gen/model';
import { toJobSummary } from '../../mocks/fixtures';
import { completedJobFixture, libraryBookIds, libraryProgressFixture, libraryShelfFixture } from '../../mocks/library';
import { chapterCount } from '../../entities/job';
import {
  filterOptions,
  readLibraryView,
  selectBooks,
  summarize,
  summaryLine,
  toLibraryBooks,
  writeLibraryView,
} from './books';
import { keptLibraryBooks } from './kept';

const summary = (job: Parameters<typeof toJobSummary>[0]) => JobSummary.parse(toJobSummary(job));
const jobs = libraryShelfFixture().map(summary);
const records = libraryProgressFixture().map((record) => PlaybackProgress.parse(record));

const books = toLibraryBooks(jobs, records);
const titles = (list: { title: string }[]) => list.map((book) => book.title);
const select = (
  filter: Parameters<typeof selectBooks>[1]['filter'],
  sort: Parameters<typeof selectBooks>[1]['sort'] = 'title',
  search = '',
) => titles(selectBooks(books, { filter, sort, search }));

describe('library books', () => {
  it('takes progress from the real records, duration in seconds', () => {
    const heart = books.find((book) => book.id === libraryBookIds.heart);
    expect(heart).toMatchObject({
      progress: (25 / 60) * 100,
      position: 25,
      hasProgress: true,
      duration: 60,
      chapters: 3,
    });
    expect(books.find((book) => book.id === libraryBookIds.amontillado)).toMatchObject({
      progress: 0,
      hasProgress: false,
    });
    expect(books.find((book) => book.id === libraryBookIds.raven)).toMatchObject({ progress: 100, finished: true });
  });

  it('says where the reader is in a few words: time left, Finished, Not started', () => {
    const status = (id: string) => books.find((book) => book.id === id)?.status;
    expect(status(libraryBookIds.heart)).toBe('35s left');
    expect(status(libraryBookIds.raven)).toBe('Finished');
    expect(status(libraryBookIds.usher)).toBe('Finished');
    expect(status(libraryBookIds.amontillado)).toBe('Not started · 25m 00s');
  });

  it('names an untitled book "Audiobook" plus its short id; the voice is the one asked for until one spoke', () => {
    const [book] = toLibraryBooks([summary(completedJobFixture({ title: ' ', config: {}, result_data: {} }))], []);
    expect(book).toMatchObject({ title: 'Audiobook 7c3e1f2a', voice: 'OpenAI', author: null });
    // In demo mode only the offline voice can speak.
    expect(toLibraryBooks([summary(completedJobFixture({ config: {}, result_data: {} }))], [], true)[0]?.voice).toBe(
      'Offline voice',
    );
  });

  it('keeps finished jobs and converting books with a chapter ready, saying how many are ready', () => {
    expect(toLibraryBooks([summary(completedJobFixture({ status: 'PROCESSING' }))], [])).toEqual([]);
    expect(toLibraryBooks([summary(completedJobFixture({ status: 'FAILED' }))], [])).toEqual([]);
    const converting = {
      ...summary(completedJobFixture({ status: 'PROCESSING', completed_at: null })),
      chapter_count: 12,
      chapters_ready: 3,
      listenable: true,
    };
    expect(toLibraryBooks([converting], [])).toMatchObject([
      { converting: '3 of 12 chapters ready', status: '3 of 12 chapters ready', chapters: 12 },
    ]);
    // Before any chapter is ready, its first chapter's opening plays: the server says so, the book is kept.
    const opening = { ...converting, chapters_ready: 0 };
    expect(toLibraryBooks([opening], [])).toMatchObject([
      { converting: 'First minutes ready', status: 'First minutes ready', chapters: 12 },
    ]);
    expect(toLibraryBooks([{ ...opening, listenable: false }], [])).toEqual([]);
    expect(toLibraryBooks(jobs, []).every((book) => book.converting === null)).toBe(true);
  });

  it('filters by the voice that really spoke, offering the voices the shelf holds', () => {
    expect(select('voice:Offline voice')).toEqual([
      'The Cask of Amontillado',
      'The Fall of the House of Usher',
      'The Tell-Tale Heart',
    ]);
    expect(select('voice:ElevenLabs')).toEqual(['The Raven']);
    expect(filterOptions(books).map((option) => option.label)).toEqual([
      'All books',
      'In progress',
      'Not started',
      'Finished',
      'Offline voice',
      'ElevenLabs',
    ]);
  });

  it('In progress: started, under 95 %; Finished: marked so, or at 95 % or more; Not started: never played', () => {
    expect(select('in_progress')).toEqual(['The Tell-Tale Heart']);
    expect(select('finished')).toEqual(['The Fall of the House of Usher', 'The Raven']);
    expect(select('not_started')).toEqual(['The Cask of Amontillado']);
  });

  it('searches titles and authors', () => {
    expect(select('all', 'title', 'HOUSE')).toEqual(['The Fall of the House of Usher']);
    expect(select('all', 'title', 'poe')).toHaveLength(4);
  });

  it('sorts by date added (newest first), title, duration (longest first) and progress', () => {
    expect(select('all', 'createdAt')).toEqual([
      'The Raven',
      'The Cask of Amontillado',
      'The Tell-Tale Heart',
      'The Fall of the House of Usher',
    ]);
    expect(select('all', 'title')).toEqual([
      'The Cask of Amontillado',
      'The Fall of the House of Usher',
      'The Raven',
      'The Tell-Tale Heart',
    ]);
    expect(select('all', 'duration')).toEqual([
      'The Fall of the House of Usher',
      'The Cask of Amontillado',
      'The Raven',
      'The Tell-Tale Heart',
    ]);
    expect(select('all', 'progress')).toEqual([
      'The Raven',
      'The Fall of the House of Usher',
      'The Tell-Tale Heart',
      'The Cask of Amontillado',
    ]);
  });

  it('summarizes count, total seconds and the voices that read them, in one line', () => {
    expect(summarize(books)).toEqual({
      total: 4,
      duration: 60 + 125 + 3725 + 1500,
      voices: [
        { voice: 'Offline voice', count: 3 },
        { voice: 'ElevenLabs', count: 1 },
      ],
    });
    expect(summaryLine(books)).toBe('4 books · 1h 30m · Offline voice 3 · ElevenLabs 1');
  });

  it('remembers the view', () => {
    expect(readLibraryView()).toBe('grid');
    writeLibraryView('list');
    expect(readLibraryView()).toBe('list');
  });
});

describe('chapterCount', () => {
  it('counts a single text as one chapter, as its book page does, never 0', () => {
    expect(chapterCount(completedJobFixture({ children: [], result_data: { duration: 60 } }))).toBe(1);
    expect(chapterCount(completedJobFixture({ result_data: { chapters: [] } }))).toBe(1);
  });

  it('counts a book by its chapter list', () => {
    const chapters = [1, 2, 3].map((order) => ({
      title: `Stave ${order}`,
      order,
      duration: 60,
      file_key: `audio/${order}.mp3`,
    }));
    expect(chapterCount(completedJobFixture({ result_data: { chapters } }))).toBe(3);
  });

  it('On this device: a filter once a book is kept, showing the kept books only', () => {
    const kept = toLibraryBooks(jobs, records, false, new Set([libraryBookIds.heart]));
    expect(kept.find((book) => book.id === libraryBookIds.heart)?.kept).toBe(true);
    expect(kept.filter((book) => book.kept)).toHaveLength(1);
    expect(filterOptions(kept).map((option) => option.label)).toContain('On this device');
    expect(filterOptions(books).map((option) => option.label)).not.toContain('On this device');
    expect(titles(selectBooks(kept, { filter: 'kept', sort: 'title', search: '' }))).toEqual(['The Tell-Tale Heart']);
  });

  it('builds the kept books from their index when the server cannot be asked, with the saved places held', () => {
    const entry = {
      id: libraryBookIds.heart,
      title: 'The Tell-Tale Heart',
      author: 'Edgar Allan Poe',
      voice: 'Offline voice',
      duration: 60,
      chapters: 3,
      createdAt: '2025-02-01T10:00:00Z',
    };
    const [book] = keptLibraryBooks([entry], records);
    expect(book).toMatchObject({
      id: libraryBookIds.heart,
      title: 'The Tell-Tale Heart',
      kept: true,
      position: 25,
      hasProgress: true,
      status: '35s left',
      converting: null,
    });
    expect(keptLibraryBooks([entry], [])[0]).toMatchObject({ hasProgress: false, status: 'Not started · 1m 00s' });
  });
});
