/**
 * What the assistant reads about the user's books: finished jobs, their source text with its
 * sentence timing map, their tutoring analysis and the listener's saved position. Read-only.
 */
import type { DbExecutor } from '../db/types';
import type { FileStorage } from '../storage/types';

export interface TimingEntry {
  start: number;
  end: number;
  char_start: number;
  char_end: number;
}

export interface BookAnalysis {
  themes: string[];
  characters: { name: string; role: string }[];
  setting: { time: string; place: string } | null;
  discussionQuestions: string[];
}

export interface BookChapter {
  title: string;
  order: number;
  duration: number | null;
}

/** A COMPLETED job of the user. */
export interface Book {
  id: string;
  title: string;
  description: string | null;
  durationSeconds: number | null;
  chapters: BookChapter[];
  analysis: BookAnalysis | null;
}

export interface BookText {
  /** The job's whole source text (never hand it out unbounded: see tools.heardText). */
  text: string;
  /** Sentences in time order, with UTF-16 offsets into `text`. */
  timing: TimingEntry[];
}

export interface BookSource {
  /** The user's COMPLETED books (not chapter jobs), newest first. */
  listCompleted(userId: string): Promise<Book[]>;
  /** The job when it is the user's and COMPLETED; null otherwise (indistinguishable). */
  findCompleted(userId: string, jobId: string): Promise<Book | null>;
  /** Source text and timing map; null when either is missing. */
  text(userId: string, jobId: string): Promise<BookText | null>;
  /** The saved listening position in seconds; null when never played. */
  savedPosition(userId: string, jobId: string): Promise<number | null>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function record(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

export function parseAnalysis(value: unknown): BookAnalysis | null {
  if (value === null || value === undefined) return null;
  const a = record(value);
  const characters = Array.isArray(a.characters)
    ? a.characters.flatMap((c: unknown) => {
        const r = record(c);
        return typeof r.name === 'string' && r.name.trim() !== ''
          ? [{ name: r.name.trim(), role: typeof r.role === 'string' ? r.role : 'character' }]
          : [];
      })
    : [];
  const setting = record(a.setting);
  return {
    themes: strings(a.themes),
    characters,
    setting:
      typeof setting.time === 'string' || typeof setting.place === 'string'
        ? { time: String(setting.time ?? ''), place: String(setting.place ?? '') }
        : null,
    discussionQuestions: strings(a.discussion_questions),
  };
}

export function parseTiming(value: unknown): TimingEntry[] {
  // The pipeline writes an array; older fixtures wrote {sentences: [...]}.
  const list = Array.isArray(value) ? value : Array.isArray(record(value).sentences) ? (record(value).sentences as unknown[]) : [];
  return list
    .flatMap((e: unknown) => {
      const r = record(e);
      const start = num(r.start);
      const end = num(r.end);
      const cs = num(r.char_start);
      const ce = num(r.char_end);
      return start !== null && end !== null && cs !== null && ce !== null ? [{ start, end, char_start: cs, char_end: ce }] : [];
    })
    .sort((a, b) => a.start - b.start || a.char_start - b.char_start);
}

interface JobRow {
  id: string;
  title: string;
  description: string | null;
  config: unknown;
  result_data: unknown;
  duration: number | null;
  input_file_key: string | null;
  output_file_key: string | null;
}

function toBook(row: JobRow): Book {
  const result = record(row.result_data);
  const chapters = Array.isArray(result.chapters)
    ? result.chapters
        .map((c: unknown, i) => {
          const r = record(c);
          return {
            title: typeof r.title === 'string' ? r.title : `Chapter ${i + 1}`,
            order: typeof r.order === 'number' ? r.order : i + 1,
            duration: num(r.duration),
          };
        })
        .sort((a, b) => a.order - b.order)
    : [];
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    durationSeconds: num(row.duration === null ? null : Number(row.duration)) ?? num(result.duration_seconds) ?? num(result.duration),
    chapters,
    analysis: parseAnalysis(record(row.config).tutoring_analysis),
  };
}

async function readAll(storage: FileStorage, key: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of storage.read(key)) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

const COLUMNS = 'id, title, description, config, result_data, duration, input_file_key, output_file_key';

export function createBookSource(db: DbExecutor, storage: FileStorage): BookSource {
  async function row(userId: string, jobId: string): Promise<JobRow | null> {
    if (!UUID.test(jobId)) return null;
    const { rows } = await db.query<JobRow>(
      `SELECT ${COLUMNS} FROM jobs WHERE id = $1 AND user_id = $2 AND status = 'COMPLETED'`,
      [jobId, userId],
    );
    return rows[0] ?? null;
  }

  return {
    async listCompleted(userId) {
      const { rows } = await db.query<JobRow>(
        `SELECT ${COLUMNS} FROM jobs WHERE user_id = $1 AND status = 'COMPLETED' AND parent_job_id IS NULL
         ORDER BY created_at DESC LIMIT 500`,
        [userId],
      );
      return rows.map(toBook);
    },
    async findCompleted(userId, jobId) {
      const r = await row(userId, jobId);
      return r === null ? null : toBook(r);
    },
    async text(userId, jobId) {
      const r = await row(userId, jobId);
      if (r === null || r.input_file_key === null || r.output_file_key === null) return null;
      try {
        const [text, timing] = await Promise.all([
          readAll(storage, r.input_file_key),
          readAll(storage, `${r.output_file_key}.timing.json`),
        ]);
        return { text, timing: parseTiming(JSON.parse(timing)) };
      } catch {
        return null;
      }
    },
    async savedPosition(userId, jobId) {
      if (!UUID.test(jobId)) return null;
      const { rows } = await db.query<{ position_seconds: number }>(
        'SELECT position_seconds FROM playback_progress WHERE user_id = $1 AND job_id = $2',
        [userId, jobId],
      );
      return rows[0] ? Number(rows[0].position_seconds) : null;
    },
  };
}

/** An in-memory BookSource for tests and benchmarks. */
export function memoryBookSource(
  books: { userId: string; book: Book; text?: BookText; position?: number }[],
): BookSource & { setPosition(userId: string, jobId: string, seconds: number): void } {
  const find = (userId: string, jobId: string) => books.find((b) => b.userId === userId && b.book.id === jobId);
  return {
    async listCompleted(userId) {
      return books.filter((b) => b.userId === userId).map((b) => b.book);
    },
    async findCompleted(userId, jobId) {
      return find(userId, jobId)?.book ?? null;
    },
    async text(userId, jobId) {
      return find(userId, jobId)?.text ?? null;
    },
    async savedPosition(userId, jobId) {
      return find(userId, jobId)?.position ?? null;
    },
    setPosition(userId, jobId, seconds) {
      const b = find(userId, jobId);
      if (b) b.position = seconds;
    },
  };
}
