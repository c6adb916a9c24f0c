/**
 * split_chapters: a book's planned chapters become chapter jobs, each with its own text; a text
 * has nothing to split. A job queued before plans were kept at creation is planned here. A
 * full-cast job's cast (server/cast) is decided here too, for the book or the text.
 */
import { randomUUID } from 'node:crypto';
import { storedPlan } from '../plan';
import { audioBytes, voiceFigures } from '../space';
import { sourceKey } from '../storage-keys';
import { CHAPTER_STEPS } from '../types';
import { jobText, keepPlan, type Step } from './context';

/** Chapter texts split_chapters writes at the same time. */
const CHAPTER_WRITES_AT_ONCE = 8;

/** Runs `work` on every item, at most `limit` at a time; rejects with the first failure. */
async function eachAtOnce<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export const splitChapters: Step = async (deps, { job }) => {
  const { repo, storage } = deps;
  const text = await jobText(deps, job);
  const plan = storedPlan(job.config) ?? (await keepPlan(deps, job, text));
  // A full cast is decided with the chapters, before any of them is read aloud.
  await deps.cast?.plan(job, plan.kind === 'text' ? [text] : plan.chapters.map((c) => text.slice(c.start, c.end)));
  if (plan.kind === 'text') return { metadata: { kind: 'text', characters: text.length } };

  const chapters = plan.chapters.map((c, i) => ({ ...c, order: i + 1, id: randomUUID() }));
  // Chapter texts first (files nobody points at yet), then every row in one transaction, so a
  // crash leaves either the whole book or nothing; a re-run replaces children of an earlier try.
  // A few files at a time: a 10 MB text has some 400 chapters.
  await eachAtOnce(chapters, CHAPTER_WRITES_AT_ONCE, (c) =>
    storage.write(sourceKey(c.id), Buffer.from(text.slice(c.start, c.end), 'utf8')),
  );
  // The book's reservation passes to its chapters (their texts, written now, and their audio);
  // it keeps the space of its joined audio.
  const voice = voiceFigures(
    deps.voices,
    job.config.voice_config?.provider ?? job.config.provider ?? 'openai',
    job.config.voice_config?.voice_id,
  );
  await repo.replaceChapters(
    job.id,
    chapters.map((c) => ({
      id: c.id,
      userId: job.userId,
      parentJobId: job.id,
      chapterOrder: c.order,
      jobType: 'text_to_audio',
      title: `${job.title} - ${c.title}`,
      description: null,
      config: {
        ...(job.config.voice_config !== undefined && { voice_config: job.config.voice_config }),
        ...(job.config.provider !== undefined && { provider: job.config.provider }),
        source: 'content',
        source_bytes: Buffer.byteLength(text.slice(c.start, c.end), 'utf8'),
        chapter_title: c.title,
        char_offset: c.start,
      },
      inputFileKey: sourceKey(c.id),
      reservedBytes: audioBytes(c.end - c.start, voice),
      steps: CHAPTER_STEPS,
    })),
    audioBytes(text.length, voice),
  );
  return {
    metadata: {
      kind: 'book',
      chapters: chapters.length,
      chapter_titles: chapters.map((c) => c.title),
      characters: text.length,
    },
  };
};
