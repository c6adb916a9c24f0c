import { randomUUID } from 'node:crypto';
import { analyseInWorker, freeWhatSpeechLeft } from '../analysis/run';
import type { TutoringAnalysis } from '../analysis/tutoring';
import { concatMp3 } from '../audio/concat';
import { readWhole } from '../books/read';
import { readTimingMap } from '../books/timing';
import { DomainError, type DomainErrorKind } from '../errors';
import type { EncoderPool } from '../audio/encoder-pool';
import { compileRules, matchingEntries, type Pronunciation } from '../pronunciations/rules';
import type { FileStorage } from '../storage/types';
import { splitIntoChunks } from '../tts/chunking';
import { selectEngine, type VoiceSettings } from '../tts/select';
import { acquirePage, type FetchSlots } from './acquire-page';
import type { Quotas } from './quotas';
import type { JobRepository } from './repository';
import { audioBytes, voiceFigures } from './space';
import { appliedRecord, createSpeaker, encodedSpeaking, encoderName } from './speech';
import { SampleRateChange, segmentCount, synthesizeToMp3, type SynthesisResult } from './synthesis';
import { audioKey, isSourceKey, openingKey, sourceKey, timingKey } from './storage-keys';
import { timingMapJson } from './timing';
import { jobPlan, planSourceOffThread, storedPlan } from './plan';
import {
  BOOK_STEPS,
  BOOK_TAIL,
  CHAPTER_STEPS,
  type JobPlan,
  type JobRecord,
  type ResultData,
  type StepRecord,
} from './types';

/** A failure of a step that retrying cannot fix; its message is shown to the user as is. */
export class PipelineError extends DomainError {
  constructor(message: string, kind: DomainErrorKind = 'invalid') {
    super(kind, message, { retryable: false });
    this.name = 'PipelineError';
  }
}

export interface StepContext {
  job: JobRecord;
  signal: AbortSignal;
  /** Reports progress within the step (0-1); throttled, cheap to call often. */
  report(fraction: number): Promise<void>;
}

export interface StepOutcome {
  metadata?: Record<string, unknown>;
  /** The step is not finished but has nothing to do now (a book waiting for its chapters). */
  wait?: boolean;
}

export interface StepDeps {
  repo: JobRepository;
  storage: FileStorage;
  voices: VoiceSettings;
  /** Each user's pronunciations, applied to the text before any voice reads it. */
  pronunciations: { forUser(userId: string): Promise<Pronunciation[]> };
  encoderPool?: EncoderPool | undefined;
  allowLoopbackFetch: boolean;
  fetchTimeoutMs: number;
  /** Web-page downloads run in a few slots of their own (URL_FETCH_CONCURRENCY). */
  fetchSlots: FetchSlots;
  /** The storage quota: a web page's text and audio are reserved once it is read (./acquire-page.ts). */
  quotas: Pick<Quotas, 'keepWithin'>;
  /** Gives the job's worker slot back: the job runs again from the queue in `seconds`. */
  runLater(jobId: string, seconds: number): Promise<void>;
  /** Hands chapters to the queue (books only). */
  scheduleChapters(parentId: string): Promise<ChapterState>;
}

export { createFetchSlots, type FetchSlots } from './acquire-page';

export type ChapterState = { state: 'done' } | { state: 'failed'; message: string } | { state: 'waiting' };

export async function readText(storage: FileStorage, key: string): Promise<string> {
  return Buffer.from((await readBytes(storage, key)).buffer).toString('utf8');
}

/** A stored file's bytes in one array that owns its memory (so it can be handed to a thread). */
export async function readBytes(storage: FileStorage, key: string): Promise<Uint8Array> {
  try {
    return await readWhole(storage, key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingFileError(key);
    throw error;
  }
}

/** A stored file is gone; retryable (storage may be catching up), with a message that leaks no paths. */
export class MissingFileError extends DomainError {
  constructor(key: string) {
    super('not_found', isSourceKey(key) ? 'The text of this job is missing from storage' : 'A stored file is missing', {
      retryable: true,
    });
    this.name = 'MissingFileError';
  }
}

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

/** A book's first chapter (chapters are numbered from 1), converted before the others. */
/**
 * About how many characters a book's first chapter's opening holds: some two minutes of speech,
 * synthesised in about a second on one core by the offline voice
 * (docs/listening.md#the-opening-of-the-first-chapter).
 */
export const OPENING_CHARS = 2_000;

function isFirstChapter(job: JobRecord): boolean {
  return job.parentJobId !== null && job.chapterOrder === 1;
}

function stepMeta(steps: StepRecord[], name: string): Record<string, unknown> {
  return steps.find((s) => s.stepName === name)?.metadata ?? {};
}

/** The step implementations, by step name. Each is idempotent: run again after a crash, it redoes its work from the start. */
export function createSteps(deps: StepDeps): Record<string, (ctx: StepContext) => Promise<StepOutcome>> {
  const { repo, storage } = deps;

  /**
   * Decides the plan of a job whose text has just become known (a web page, read by
   * acquire_content; or a job queued by a version that planned in split_chapters) and keeps it.
   */
  async function keepPlan(job: JobRecord, text: string): Promise<JobPlan> {
    const plan = jobPlan(await planSourceOffThread(text, job.title, null, job.config.job_type_requested));
    await storePlan(job, plan);
    return plan;
  }

  async function storePlan(job: JobRecord, plan: JobPlan): Promise<void> {
    await repo.keepPlan(job.id, plan, BOOK_TAIL, BOOK_STEPS.indexOf(BOOK_TAIL[0]) + 1);
  }

  /** The tutoring analysis of the job's text, in its own thread, kept in the job's config. */
  async function analyseAndKeep(job: JobRecord, signal: AbortSignal): Promise<TutoringAnalysis> {
    if (job.inputFileKey === null) throw new PipelineError('The job has no text yet');
    // The bytes go to the analysis thread as they are: this thread never decodes a long book.
    const analysis = await analyseInWorker(await readBytes(storage, job.inputFileKey), signal);
    await repo.jobs.mergeConfig(job.id, { tutoring_analysis: analysis });
    return analysis;
  }

  async function jobText(job: JobRecord): Promise<string> {
    if (job.inputFileKey === null) throw new PipelineError('The job has no text yet');
    return readText(storage, job.inputFileKey);
  }

  /** Reads the job's text aloud into its MP3 and timing map (the synthesize step's work). */
  async function synthesizeText({ job, signal, report }: StepContext): Promise<StepOutcome> {
    const text = await jobText(job);
    const provider = job.config.voice_config?.provider ?? job.config.provider ?? 'openai';
    const selection = selectEngine(deps.voices, provider, job.config.voice_config?.voice_id);
    const { engine } = selection;
    // One request per chunk of whole sentences (timings inside a chunk are by character share),
    // or per sentence for engines that say so (each sentence's time is then exact).
    const chunks = splitIntoChunks(text, engine.maxCharsPerRequest);
    const pieces = engine.sentencePerRequest
      ? chunks.flatMap((c) => c.sentences.map((sentence) => ({ ...sentence, sentences: [sentence] })))
      : chunks.map((c) => ({ start: c.start, end: c.end, sentences: c.sentences }));
    if (pieces.length === 0) throw new PipelineError('The text has nothing to read aloud');
    // The reader's pronunciations change what the voice reads, never the text (nor the transcript).
    const rules = compileRules(await deps.pronunciations.forUser(job.userId));
    const key = audioKey(job.id);
    // The offline voice runs on this machine: a long standalone text is encoded in several
    // streams at once (a book's chapters already are), and so is a book's first chapter, which
    // converts alone so the book is playable soonest (docs/listening.md#the-first-chapter-first).
    // Cloud voices keep one request at a time.
    const segments =
      engine.name === 'espeak-ng' && (job.parentJobId === null || isFirstChapter(job))
        ? segmentCount(text.length, deps.encoderPool?.parallelism ?? 1)
        : 1;
    // A book's first chapter plays its first minutes while the rest converts.
    let openingSeconds: number | null = null;
    const opening = isFirstChapter(job)
      ? {
          chars: OPENING_CHARS,
          key: openingKey(job.id),
          ready: async (duration: number) => {
            await repo.jobs.mergeConfig(job.id, { opening: { file_key: openingKey(job.id), duration } });
            openingSeconds = duration;
          },
        }
      : undefined;
    let result: SynthesisResult;
    try {
      result = await synthesizeToMp3({
        text,
        pieces,
        speak: createSpeaker(engine, selection.voiceId, rules),
        encoded: encodedSpeaking(engine, selection.voiceId, rules, deps.encoderPool?.lameBinary != null),
        lookahead: engine.concurrency ?? 1,
        storage,
        key,
        pool: deps.encoderPool,
        segments,
        signal,
        report,
        opening,
      });
    } catch (error) {
      // A failed attempt deletes what it encoded, the opening too: nobody is sent to it any more.
      if (opening) await repo.jobs.mergeConfig(job.id, { opening: null }).catch(() => undefined);
      if (error instanceof SampleRateChange) throw new PipelineError(error.message);
      throw error;
    }
    const timing = Buffer.from(JSON.stringify(result.timings));
    await storage.write(timingKey(key), timing);
    return {
      metadata: {
        engine: engine.name,
        ...('backend' in engine && { engine_backend: engine.backend }),
        provider,
        voice: selection.voiceId,
        requested_voice: selection.requestedVoiceId,
        stand_in: selection.standIn,
        characters: text.length,
        chunks: chunks.length,
        requests: pieces.length,
        sentences: chunks.reduce((n, c) => n + c.sentences.length, 0),
        sample_rate: result.sampleRate,
        word_timings: result.timings.some((t) => t.words !== undefined),
        pronunciations: appliedRecord(await matchingEntries(text, rules)),
        encoded_while_synthesizing: true,
        encoder: encoderName(result.encodedByVoice, deps.encoderPool),
        encoder_streams: result.segments,
        ...(openingSeconds !== null && { opening_seconds: openingSeconds }),
        duration_seconds: result.durationSeconds,
        file_size_bytes: result.bytes,
        timing_file_bytes: timing.byteLength,
        output_file_key: key,
      },
    };
  }

  return {
    async acquire_content({ job, signal }) {
      const source = job.config.source ?? 'content';
      if (source === 'url' && job.parentJobId === null) {
        return acquirePage({ ...deps, keepPlan: storePlan }, job, signal);
      }
      const text = await jobText(job);
      if (text.trim().length === 0) throw new PipelineError('The text is empty');
      return { metadata: { source, characters: text.length, input_file_key: job.inputFileKey } };
    },

    async analyze({ job, signal }) {
      // A text's analysis ran beside its synthesis (see synthesize) and is kept already; a job's
      // text never changes, so a kept analysis is its analysis.
      const kept = job.config.tutoring_analysis;
      if (kept === undefined) freeWhatSpeechLeft(); // a book's chapters are all spoken (../analysis/run.ts)
      const analysis = kept ?? (await analyseAndKeep(job, signal));
      return {
        metadata: {
          themes: analysis.themes.length,
          characters: analysis.characters.length,
          discussion_questions: analysis.discussion_questions.length,
          content_type: analysis.content_type,
          ran_beside_synthesis: kept !== undefined,
        },
      };
    },

    async split_chapters({ job }) {
      const text = await jobText(job);
      const plan = storedPlan(job.config) ?? (await keepPlan(job, text));
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
    },

    async synthesize(ctx) {
      const { job, signal } = ctx;
      // A text's tutoring analysis (one thread, one core, a second or two) runs beside its voice
      // and encoders instead of before them, and is kept for its analyze step. If it fails here,
      // the analyze step runs it again and reports why, with its own retries.
      const besides =
        job.jobType === 'text_to_audio' && job.parentJobId === null && job.config.tutoring_analysis === undefined
          ? analyseAndKeep(job, signal).then(
              () => undefined,
              () => undefined,
            )
          : undefined;
      try {
        return await synthesizeText(ctx);
      } finally {
        await besides;
      }
    },

    async synthesize_chapters({ job }) {
      const outcome = await deps.scheduleChapters(job.id);
      if (outcome.state === 'failed') throw new PipelineError(outcome.message);
      if (outcome.state === 'waiting') return { wait: true };
      const children = await repo.jobs.children([job.id]);
      return { metadata: { chapters: children.length } };
    },

    async combine_audio({ job }) {
      const children = await repo.jobs.children([job.id]);
      const keys = children.map((c) => c.outputFileKey);
      if (children.length === 0 || keys.some((k) => k === null)) throw new PipelineError('A chapter has no audio');
      const key = audioKey(job.id);
      const size = await concatMp3(storage, keys as string[], key);
      // The book's timing map, a chapter's entries at a time (a long book's map is never whole in memory).
      let offset = 0;
      async function* chapterMaps() {
        for (const child of children) {
          const entries = (await readTimingMap(storage, child.outputFileKey!).catch(() => null)) ?? [];
          yield { entries, timeOffset: offset, charOffset: Number(child.config.char_offset ?? 0) };
          offset += child.duration ?? 0;
        }
      }
      const timing = await storage.write(timingKey(key), timingMapJson(chapterMaps()));
      // The first chapter's opening has served: the book plays as a whole now.
      for (const child of children) {
        if (child.config.opening) await storage.delete(child.config.opening.file_key).catch(() => undefined);
      }
      return {
        metadata: {
          chapters: children.length,
          duration_seconds: offset,
          file_size_bytes: size,
          timing_file_bytes: timing.size,
          output_file_key: key,
        },
      };
    },

    async finalize({ job }) {
      const steps = await repo.steps.ofJobs([job.id]);
      let result: ResultData;
      // What the conversion wrote, its MP3 and timing map, replaces the space reserved for it.
      const written = stepMeta(steps, job.jobType === 'book_processing' ? 'combine_audio' : 'synthesize');
      const storedBytes = Number(written.file_size_bytes ?? 0) + Number(written.timing_file_bytes ?? 0);
      if (job.jobType === 'book_processing') {
        const combined = stepMeta(steps, 'combine_audio');
        const children = await repo.jobs.children([job.id]);
        const duration = children.reduce((n, c) => n + (c.duration ?? 0), 0);
        result = {
          duration,
          duration_seconds: duration,
          file_size_bytes: Number(combined.file_size_bytes ?? 0),
          format: 'mp3',
          ...(children[0]?.resultData.tts_engine !== undefined && { tts_engine: children[0].resultData.tts_engine }),
          output_file_key: audioKey(job.id),
          timing_file_key: timingKey(audioKey(job.id)),
          chapters: children.map((c, i) => ({
            title: String(c.config.chapter_title ?? c.title),
            order: c.chapterOrder ?? i + 1,
            duration: c.duration ?? 0,
            file_key: c.outputFileKey ?? '',
            job_id: c.id,
          })),
          child_job_ids: children.map((c) => c.id),
        };
      } else {
        const synth = stepMeta(steps, 'synthesize');
        const duration = Number(synth.duration_seconds ?? 0);
        result = {
          duration,
          duration_seconds: duration,
          file_size_bytes: Number(synth.file_size_bytes ?? 0),
          format: 'mp3',
          tts_engine: String(synth.engine ?? ''),
          output_file_key: audioKey(job.id),
          timing_file_key: timingKey(audioKey(job.id)),
        };
      }
      const metadata = {
        duration_seconds: result.duration,
        file_size_bytes: result.file_size_bytes,
        output_file_key: audioKey(job.id),
      };
      // The step is recorded before the job turns COMPLETED, so a finished job never shows a running step.
      await repo.steps.update(job.id, 'finalize', { status: 'completed', progress: 100, complete: true, metadata });
      const done = await repo.jobs.patch(
        job.id,
        {
          status: 'COMPLETED',
          progress: 100,
          errorMessage: null,
          resultData: result,
          outputFileKey: audioKey(job.id),
          duration: result.duration ?? null,
          completedAt: new Date(),
          storedBytes,
          reservedBytes: 0,
        },
        { onlyIfActive: true },
      );
      if (!done) throw new PipelineError('The job was cancelled', 'conflict');
      return { metadata };
    },
  };
}
