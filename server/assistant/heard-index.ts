/**
 * A full-text index of what the listener has heard of one book (MiniSearch: BM25+, fuzzy and
 * prefix matching, with Porter stemming from `stemmer`).
 *
 * SPOILER BOUND BY CONSTRUCTION: the index only ever CONTAINS the heard sentences. Before each
 * search it is brought to exactly the sentences whose audio starts at or before the listener's
 * position (new ones are added as the listener moves on, later ones discarded when they seek
 * back), so nothing past the position can be ranked, matched or counted in the BM25 statistics.
 *
 * Each sentence keeps its place in the audio (chapter and seconds into it), so answers can say
 * where a quote comes from ("in chapter 1, about 2 minutes in").
 */
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { splitSentences } from '../tts/chunking';
import type { RecordedChapter } from '../books/book';
import type { BookText } from '../books/text';

export interface SentencePlace {
  /** 1-based chapter number; null when the book has no chapter list. */
  chapter: number | null;
  chapterTitle: string | null;
  /** Seconds from the chapter's start (from the book's start without chapters). */
  secondsIn: number;
}

export interface IndexedSentence {
  /** Position in the book's sentence order (0-based). */
  index: number;
  text: string;
  /** UTF-16 offset of the sentence in the book's text. */
  charStart: number;
  /** Seconds from the book's start where the sentence is spoken. */
  start: number;
  place: SentencePlace;
  /** Start (s) of the timing entry the sentence belongs to: the bound is placed by entries. */
  entryStart: number;
}

export interface Passage {
  sentence: IndexedSentence;
  score: number;
  /** Query terms (as indexed) the sentence matched. */
  terms: string[];
}

export interface SearchOptions {
  limit?: number;
  /** 'or' (default): any term; 'and': every term. */
  combine?: 'or' | 'and';
  fuzzy?: boolean;
}

const STOPWORDS = new Set(
  (
    'a an the and or but nor of to in on at by for with from about into onto upon is are was were be been being am do does did done ' +
    'what who whom whose where when why how which that this these those it its he she they them his her hers their theirs i me my mine ' +
    'you your yours we our ours us tell know say said there here not no yes can could would should will shall may might must have has ' +
    'had as if so than then up out over any some all more most very just also again me let lets please think thought really ' +
    'mr mrs ms miss dr'
  ).split(' '),
);

/** A word as the index stores it: lower case, no possessive, stemmed; null for a stopword. */
export function indexTerm(word: string): string | null {
  const w = word
    .toLowerCase()
    .replace(/['’]s$/u, '')
    .replace(/['’]/gu, '');
  if (w.length < 2 || STOPWORDS.has(w)) return null;
  return /^\p{L}+$/u.test(w) ? stemmer(w) : w;
}

/** The index terms of a text, in order, without duplicates. */
export function indexTerms(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []) {
    const term = indexTerm(word);
    if (term !== null) out.add(term);
  }
  return [...out];
}

function chapterStarts(chapters: readonly RecordedChapter[]): { order: number; title: string; start: number }[] {
  let t = 0;
  return chapters.map((c, i) => {
    const start = t;
    t += c.duration ?? 0;
    return { order: i + 1, title: c.title, start };
  });
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Sentences in time order: each timing entry split into sentences, times spread by characters. */
async function sentencesOf(source: BookText, chapters: readonly RecordedChapter[]): Promise<IndexedSentence[]> {
  const starts = chapterStarts(chapters);
  const out: IndexedSentence[] = [];
  for (const [n, entry] of source.timing.entries()) {
    // A long book takes a few hundred ms to split: let other requests through now and then.
    if (n % 100 === 99) await yieldToEventLoop();
    const chunk = source.text.slice(entry.char_start, entry.char_end);
    const spans = splitSentences(chunk);
    const perChar = chunk.length > 0 ? (entry.end - entry.start) / chunk.length : 0;
    for (const span of spans) {
      const text = chunk.slice(span.start, span.end).replace(/\s+/g, ' ').trim();
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      const start = entry.start + span.start * perChar;
      let chapter: (typeof starts)[number] | undefined;
      for (const c of starts) if (c.start <= entry.start + 1e-6) chapter = c;
      out.push({
        index: out.length,
        text,
        charStart: entry.char_start + span.start,
        start,
        entryStart: entry.start,
        // The timing entry's start decides the chapter (a sentence never spans two chapters).
        place:
          chapter === undefined
            ? { chapter: null, chapterTitle: null, secondsIn: start }
            : { chapter: chapter.order, chapterTitle: chapter.title, secondsIn: start - chapter.start },
      });
    }
  }
  return out;
}

/** Sentences added to (or rebuilt into) the index per turn of the event loop. */
const CHUNK = 200;

export class HeardIndex {
  private readonly search: MiniSearch<{ id: number; text: string }>;
  /** How many sentences (from the first) the index holds now. */
  private held = 0;
  /** Every change of the index, and every search, runs in this queue: one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Splits and places the book's sentences (yielding to the event loop as it goes); indexes nothing yet. */
  static async build(source: BookText, chapters: readonly RecordedChapter[]): Promise<HeardIndex> {
    return new HeardIndex(await sentencesOf(source, chapters));
  }

  private constructor(private readonly all: IndexedSentence[]) {
    this.search = new MiniSearch<{ id: number; text: string }>({
      fields: ['text'],
      tokenize: (text) => text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [],
      processTerm: (term) => indexTerm(term) ?? null,
      autoVacuum: false,
    });
  }

  /**
   * How many sentences are heard at `positionSeconds`: those of every timing entry whose start is
   * at or before the position (the sentence playing counts as heard, as in tools.spoilerBound).
   */
  heardCount(positionSeconds: number): number {
    let lo = 0;
    let hi = this.all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.all[mid]!.entryStart <= positionSeconds) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first `count` sentences (the heard ones). */
  heard(count: number): IndexedSentence[] {
    return this.all.slice(0, Math.max(0, count));
  }

  private serial<T>(step: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Brings the index to hold exactly the first `count` sentences (in chunks, yielding between them). */
  private async hold(count: number): Promise<void> {
    const target = Math.max(0, Math.min(count, this.all.length));
    if (target === this.held) return;
    const docs = (from: number, to: number) => this.all.slice(from, to).map((s) => ({ id: s.index, text: s.text }));
    if (target > this.held) {
      await this.search.addAllAsync(docs(this.held, target), { chunkSize: CHUNK });
    } else if (this.held - target > target) {
      this.search.removeAll();
      await this.search.addAllAsync(docs(0, target), { chunkSize: CHUNK });
    } else {
      for (let i = target; i < this.held; i += 1) this.search.discard(i);
    }
    this.held = target;
  }

  /** Indexes the first `count` sentences ahead of a search (e.g. when a session starts). */
  prepare(count: number): Promise<void> {
    return this.serial(() => this.hold(count));
  }

  /**
   * BM25-ranked passages among the first `heardCount` sentences only: the index is brought to
   * exactly those sentences, then searched, with nothing able to change it in between.
   */
  find(query: string, heardCount: number, options: SearchOptions = {}): Promise<Passage[]> {
    return this.serial(async () => {
      await this.hold(heardCount);
      if (this.held === 0 || indexTerms(query).length === 0) return [];
      const fuzzy = options.fuzzy ?? true;
      const results = this.search.search(query, {
        combineWith: options.combine === 'and' ? 'AND' : 'OR',
        prefix: (term) => fuzzy && term.length >= 5,
        fuzzy: (term) => (fuzzy && term.length >= 5 ? 0.2 : false),
      });
      return results
        .filter((r) => (r.id as number) < heardCount)
        .slice(0, options.limit ?? 5)
        .map((r) => ({ sentence: this.all[r.id as number]!, score: r.score, terms: r.terms }));
    });
  }
}

/**
 * The indexes of the books last asked about, shared by a process's voice connections (a
 * reconnect, or a second tab, does not split and index the book again). Keyed by user and book:
 * the loader reads the text through the user's own BookSource.
 */
export class BookIndexCache {
  private readonly entries = new Map<string, Promise<{ source: BookText; index: HeardIndex } | null>>();

  constructor(private readonly max = 4) {}

  get(
    userId: string,
    jobId: string,
    chapters: readonly RecordedChapter[],
    load: () => Promise<BookText | null>,
  ): Promise<{ source: BookText; index: HeardIndex } | null> {
    const key = `${userId}\n${jobId}`;
    let entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    entry = load().then(async (source) =>
      source === null ? null : { source, index: await HeardIndex.build(source, chapters) },
    );
    entry.catch(() => this.entries.delete(key));
    this.entries.set(key, entry);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

/** "in chapter 2, “Lowood”, about 3 minutes in" — where a sentence is in the audio. */
export function describePlace(place: SentencePlace): string {
  const s = Math.max(0, Math.round(place.secondsIn));
  const when =
    s < 5
      ? 'at the very start'
      : s < 60
        ? `about ${s} seconds in`
        : s < 90
          ? 'about a minute in'
          : s < 3600
            ? `about ${Math.round(s / 60)} minutes in`
            : `about ${(s / 3600).toFixed(1).replace(/\.0$/, '')} hours in`;
  if (place.chapter === null) return when;
  const title = place.chapterTitle ?? '';
  const named =
    title === '' || /^(?:chapter|part|section)\b/iu.test(title)
      ? `chapter ${place.chapter}`
      : `chapter ${place.chapter}, “${title}”`;
  return `in ${named}, ${when}`;
}
