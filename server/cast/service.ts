/**
 * A book's full cast (`voice_config.cast`): decided when its chapters are planned (the
 * split_chapters step attributes every quoted span to a speaker and gives each character a voice),
 * read by the synthesize step (which voice reads each part of a chapter), by the transcript (who
 * speaks each part of a sentence), and answered and corrected through `GET/PUT /audio/{jobId}/cast`
 * (./service-update.ts). The cast is kept by ./repository.ts; a text is a book of one chapter.
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../errors';
import type { ChapterVoices } from '../jobs/cast-pieces';
import type { JobRepository } from '../jobs/repository';
import type { Reconverter } from '../jobs/reconvert';
import type { JobRecord } from '../jobs/types';
import type { FileStorage } from '../storage/types';
import { DEFAULT_VOICES } from '../tts/select';
import type { VoiceCatalog } from '../voices/catalog';
import type { ModelCheck } from './model-check';
import { createCastRepository, type StoredCast, type StoredSpan } from './repository';
import { updateCast, type CastUpdate } from './service-update';
import { NARRATOR, type Attribution, type CastGender } from './types';
import { assignVoices } from './voices';

export interface CastView {
  narrator: { voice_id: string };
  characters: { id: string; name: string; aliases: string[]; gender: CastGender; voice_id: string; lines: number }[];
}

export interface CastDeps {
  storage: FileStorage;
  catalog: Pick<VoiceCatalog, 'list'>;
  repo: Pick<JobRepository, 'jobs' | 'steps'>;
  reconverter: Pick<Reconverter, 'restart'>;
  /** Finds the characters of a book's chapters and who speaks each quote (./attribution, in a thread). */
  attribute(chapters: readonly { text: string }[]): Attribution | Promise<Attribution>;
  /** Asks a chat model about the spans attribution is unsure of (./model-check); unset without a model. */
  checkWithModel?: ModelCheck | undefined;
}

/** The book a job's cast belongs to (a chapter's is its book's) and the chapter's index in it. */
export function castPlace(job: Pick<JobRecord, 'id' | 'parentJobId' | 'chapterOrder'>) {
  return job.parentJobId === null
    ? { bookId: job.id, chapter: 0 }
    : { bookId: job.parentJobId, chapter: (job.chapterOrder ?? 1) - 1 };
}

export const hasCast = (job: Pick<JobRecord, 'config'>) => job.config.voice_config?.cast === true;

function narratorVoiceOf(job: Pick<JobRecord, 'config'>): string {
  const voice = job.config.voice_config;
  const provider = voice?.provider ?? job.config.provider ?? 'openai';
  return voice?.voice_id || (provider === 'openai_compatible' ? '' : DEFAULT_VOICES[provider]);
}

/** The voice of each speaker: narrator and characters. */
export function voicesOf(cast: StoredCast): Map<string, string> {
  return new Map([[NARRATOR, cast.narrator_voice], ...cast.characters.map((c) => [c.id, c.voice_id] as const)]);
}

/** A chapter's quoted spans with their voices (an unknown speaker reads as the narrator). */
export function chapterCastOf(cast: StoredCast, chapter: number): ChapterVoices {
  const voices = voicesOf(cast);
  const spans = (cast.chapters[chapter] ?? []).map((s) => ({
    charStart: s.char_start,
    charEnd: s.char_end,
    voice: voices.get(s.speaker) ?? cast.narrator_voice,
  }));
  const signature = createHash('sha256')
    .update(JSON.stringify([cast.narrator_voice, spans.map((s) => [s.charStart, s.charEnd, s.voice])]))
    .digest('hex');
  return { narrator: cast.narrator_voice, spans, signature };
}

/** Quoted spans per speaker over the whole book. */
function linesBySpeaker(cast: StoredCast): Map<string, number> {
  const lines = new Map<string, number>();
  for (const chapter of cast.chapters) for (const s of chapter) lines.set(s.speaker, (lines.get(s.speaker) ?? 0) + 1);
  return lines;
}

export function viewOf(cast: StoredCast): CastView {
  const lines = linesBySpeaker(cast);
  const characters = cast.characters.map((c) => ({ ...c, lines: lines.get(c.id) ?? 0 }));
  characters.sort((a, b) => b.lines - a.lines);
  return { narrator: { voice_id: cast.narrator_voice }, characters };
}

/**
 * The cast a job's chapters (in reading order; a text is one) would have: who speaks each quote
 * and a voice for each character, the provider's voice the job's `cast_voices` names for a
 * character when there is one, else the one assignVoices chooses. Kept by `plan`; answered, not
 * kept, by the preview.
 */
export async function decideCast(
  deps: Pick<CastDeps, 'attribute' | 'catalog'>,
  job: Pick<JobRecord, 'config'>,
  chapterTexts: readonly string[],
): Promise<StoredCast> {
  const attribution = await deps.attribute(chapterTexts.map((text) => ({ text })));
  const narrator = narratorVoiceOf(job);
  const provider = job.config.voice_config?.provider ?? job.config.provider ?? 'openai';
  const { voices } = await deps.catalog.list();
  const usable = voices.filter((v) => v.provider === provider);
  const chapters: StoredSpan[][] = attribution.chapters.map((spans) =>
    spans.map((s) => ({ char_start: s.charStart, char_end: s.charEnd, speaker: s.speaker, confidence: s.confidence })),
  );
  const lines = linesBySpeaker({ narrator_voice: narrator, characters: [], chapters });
  const chosen = assignVoices(
    narrator,
    attribution.characters.map((c) => ({ id: c.id, gender: c.gender, lines: lines.get(c.id) ?? 0 })),
    usable,
  );
  const listed = new Set(usable.map((v) => v.id));
  const asked = job.config.voice_config?.cast_voices ?? {};
  const voiceOf = (id: string) => {
    const wanted = Object.hasOwn(asked, id) ? asked[id] : undefined;
    return wanted !== undefined && listed.has(wanted) ? wanted : (chosen.get(id) ?? narrator);
  };
  return {
    narrator_voice: narrator,
    characters: attribution.characters.map((c) => ({
      id: c.id,
      name: c.name,
      aliases: [...c.aliases],
      gender: c.gender,
      voice_id: voiceOf(c.id),
    })),
    chapters,
  };
}

export function createCastService(deps: CastDeps) {
  const casts = createCastRepository(deps.storage);

  /** The reader's top-level job with a full cast, and its cast; 404 for anything else, 409 before it is known. */
  async function ownCast(userId: string, jobId: string): Promise<{ job: JobRecord; cast: StoredCast }> {
    const job = await deps.repo.jobs.getForUser(jobId, userId);
    if (job === null) throw new DomainError('not_found', 'Job not found');
    if (job.parentJobId !== null) {
      throw new DomainError('not_found', 'A chapter has no cast of its own: ask its book for the cast');
    }
    if (!hasCast(job)) throw new DomainError('not_found', 'This audiobook was converted without a full cast');
    const cast = await casts.read(job.id);
    if (cast === null) {
      throw new DomainError('conflict', 'The cast is not known yet: it is found when the chapters are planned');
    }
    return { job, cast };
  }

  return {
    /**
     * Attributes the quotes of a cast book's chapters (in reading order; a text is one), asks the
     * chat model about the unsure ones when one is configured, and gives its characters their
     * voices. A cast kept by an earlier try of the same plan stays, with
     * whatever the listener corrected since.
     */
    async plan(job: JobRecord, chapterTexts: readonly string[]): Promise<void> {
      if (!hasCast(job)) return;
      const kept = await casts.read(job.id);
      if (kept !== null && kept.chapters.length === chapterTexts.length) return;
      const check = deps.checkWithModel;
      const attribute: CastDeps['attribute'] =
        check === undefined ? deps.attribute : async (chapters) => check(await deps.attribute(chapters), chapters);
      await casts.write(job.id, await decideCast({ ...deps, attribute }, job, chapterTexts));
    },

    /** A chapter's (or a text's) voices, for the synthesize step; null for a job without a cast. */
    async chapterCast(job: JobRecord): Promise<ChapterVoices | null> {
      if (!hasCast(job)) return null;
      const place = castPlace(job);
      const cast = await casts.read(place.bookId);
      return cast === null ? null : chapterCastOf(cast, place.chapter);
    },

    /** A chapter's quoted spans and who speaks them, for the transcript; null for a book without a cast. */
    async spansOf(bookId: string, chapter: number): Promise<StoredSpan[] | null> {
      const cast = await casts.read(bookId);
      return cast === null ? null : (cast.chapters[chapter] ?? []);
    },

    async view(userId: string, jobId: string): Promise<CastView> {
      return viewOf((await ownCast(userId, jobId)).cast);
    },

    /** Applies the listener's voices and corrections; the chapters they change are converted again. */
    async update(
      userId: string,
      jobId: string,
      change: CastUpdate,
    ): Promise<CastView & { chapters_reconverting: number[] }> {
      const { job, cast } = await ownCast(userId, jobId);
      const changed = await updateCast(deps, job, cast, change);
      await casts.write(job.id, changed);
      const chapters = await reconvertChanged(deps, userId, job, changed);
      return { ...viewOf(changed), chapters_reconverting: chapters };
    },
  };
}

/**
 * A finished book's parts (its chapter jobs, or the text itself) whose voices now differ from the
 * ones they were read with (the synthesize step's `cast`) go back to the queue; a book still
 * converting reads the cast as it is when each chapter's turn comes.
 */
async function reconvertChanged(
  deps: Pick<CastDeps, 'repo' | 'reconverter'>,
  userId: string,
  job: JobRecord,
  cast: StoredCast,
): Promise<number[]> {
  if (job.status !== 'COMPLETED') return [];
  const children = await deps.repo.jobs.children([job.id]);
  const parts = children.length > 0 ? children : [job];
  const steps = await deps.repo.steps.ofJobs(parts.map((p) => p.id));
  const changed = parts.filter((part) => {
    const read = steps.find((s) => s.jobId === part.id && s.stepName === 'synthesize')?.metadata.cast;
    return read !== chapterCastOf(cast, castPlace(part).chapter).signature;
  });
  return deps.reconverter.restart(userId, job, changed);
}

export type CastService = ReturnType<typeof createCastService>;
