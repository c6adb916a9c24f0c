import { describe, expect, it } from 'vitest';
import { JobSummary, PlaybackProgress } from '../../api/gen/model';
import { toJobSummary } from '../../mocks/fixtures';
import { completedJobFixture, libraryBookIds, libraryProgressFixture, libraryShelfFixture } from '../../mocks/library';
import { chapterCount } from '../../entities/job';
import { readLibraryView, selectBooks, summarize, toLibraryBooks, writeLibraryView } from './books';

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

  it('names an untitled book "Audiobook" plus its short id; provider defaults to openai', () => {
    const [book] = toLibraryBooks([summary(completedJobFixture({ title: ' ', config: {} }))], []);
    expect(book).toMatchObject({ title: 'Audiobook 7c3e1f2a', ttsProvider: 'openai' });
  });

  it('keeps finished jobs and converting books with a chapter ready, saying how many are ready', () => {
    expect(toLibraryBooks([summary(completedJobFixture({ status: 'PROCESSING' }))], [])).toEqual([]);
    expect(toLibraryBooks([summary(completedJobFixture({ status: 'FAILED' }))], [])).toEqual([]);
    const converting = {
      ...summary(completedJobFixture({ status: 'PROCESSING', completed_at: null })),
      chapter_count: 12,
      chapters_ready: 3,
    };
    expect(toLibraryBooks([converting], [])).toMatchObject([
      { converting: 'Converting · 3 of 12 chapters ready', chapters: 12 },
    ]);
    expect(toLibraryBooks(jobs, []).every((book) => book.converting === null)).toBe(true);
  });

  it('filters by provider', () => {
    expect(select('openai')).toEqual(['The Fall of the House of Usher', 'The Tell-Tale Heart']);
    expect(select('elevenlabs')).toEqual(['The Cask of Amontillado', 'The Raven']);
  });

  it('In Progress: started, under 95 %; Completed: finished (marked so, or at 95 % or more)', () => {
    expect(select('in_progress')).toEqual(['The Tell-Tale Heart']);
    expect(select('completed')).toEqual(['The Fall of the House of Usher', 'The Raven']);
  });

  it('searches titles', () => {
    expect(select('all', 'title', 'HOUSE')).toEqual(['The Fall of the House of Usher']);
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

  it('summarizes count, total seconds and providers', () => {
    expect(summarize(books)).toEqual({ total: 4, duration: 60 + 125 + 3725 + 1500, openai: 2, elevenlabs: 2 });
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
});
