/**
 * "Re-convert changed chapters": after the reader fixes pronunciations, only the chapters that
 * contain a changed word are synthesised again. Each chapter's synthesize step recorded the
 * entries that applied to it (`pronunciations` in its metadata); a chapter whose text matches a
 * different set of entries now (one added, changed or removed) is reset and converted again, and
 * the book is joined again afterwards. A single text is one chapter. `restart` converts again
 * the parts another change touched the same way (a full cast's corrections: server/cast/service.ts).
 */
import { DomainError } from '../errors';
import { compileRules, matchingEntries, pronunciationKey, type Pronunciation } from '../pronunciations/rules';
import type { StorageHealth } from '../storage/health';
import type { FileStorage } from '../storage/types';
import type { Quotas } from './quotas';
import type { JobRepository } from './repository';
import type { AppliedPronunciation } from './speech';
import { readText } from './steps';
import type { JobRecord } from './types';

export interface ReconvertDeps {
  repo: JobRepository;
  storage: FileStorage;
  /** Hands the job back to the workers when its turn comes (the fair queue's dispatch). */
  dispatch: () => Promise<void>;
  quotas: Quotas;
  /** New audio needs room: a full disk refuses the re-conversion (507) as it does new jobs. */
  storageHealth?: Pick<StorageHealth, 'assertRoom'>;
  pronunciations: { forUser(userId: string): Promise<Pronunciation[]> };
}

/** The same set of entries, whatever their order or the case of their words. */
function sameEntries(before: readonly AppliedPronunciation[], now: readonly Pronunciation[]): boolean {
  const key = (text: string, sayAs: string) => `${pronunciationKey(text)}\u0000${sayAs}`;
  const a = new Set(before.map((e) => key(e.text, e.say_as)));
  const b = new Set(now.map((e) => key(e.text, e.sayAs)));
  return a.size === b.size && [...a].every((k) => b.has(k));
}

function recorded(metadata: Record<string, unknown>): AppliedPronunciation[] {
  const list = metadata.pronunciations;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is AppliedPronunciation =>
      typeof (e as AppliedPronunciation)?.text === 'string' && typeof (e as AppliedPronunciation)?.say_as === 'string',
  );
}

export function createReconverter(deps: ReconvertDeps) {
  const { repo, storage } = deps;

  /** The parts of `job` (its chapters, or itself) whose pronunciations changed since they were converted. */
  async function changedParts(job: JobRecord, entries: readonly Pronunciation[]): Promise<JobRecord[]> {
    const rules = compileRules(entries);
    const children = await repo.jobs.children([job.id]);
    const parts = children.length > 0 ? children : [job];
    const steps = await repo.steps.ofJobs(parts.map((p) => p.id));
    const changed: JobRecord[] = [];
    for (const part of parts) {
      if (part.inputFileKey === null) continue;
      const before = recorded(steps.find((s) => s.jobId === part.id && s.stepName === 'synthesize')?.metadata ?? {});
      const now = await matchingEntries(await readText(storage, part.inputFileKey), rules);
      if (!sameEntries(before, now)) changed.push(part);
    }
    return changed;
  }

  /** The reader's finished book (or text) that may be converted again in part; else the DomainError saying why not. */
  async function finishedBook(userId: string, jobId: string): Promise<JobRecord> {
    const job = await repo.jobs.getForUser(jobId, userId);
    if (job === null) throw new DomainError('not_found', 'Job not found');
    if (job.parentJobId !== null) {
      throw new DomainError('conflict', 'This job is a chapter of a book: re-convert the book');
    }
    if (job.status !== 'COMPLETED') {
      throw new DomainError('conflict', `Only a finished audiobook can be re-converted (this one is ${job.status})`);
    }
    return job;
  }

  /**
   * `parts` of the finished `job` (its chapter jobs, or the job itself) back to PENDING, the book
   * joined again once they are converted, through the fair queue; answers their numbers (from 1).
   */
  async function restart(userId: string, job: JobRecord, parts: readonly JobRecord[]): Promise<number[]> {
    if (parts.length === 0) return [];
    const chapters = parts.filter((c) => c.parentJobId !== null);
    await deps.storageHealth?.assertRoom();
    const started = await repo.transaction(async (tx) => {
      await deps.quotas.assertQueueRoom(tx, userId);
      return tx.resetForReconvert(
        job.id,
        chapters.map((c) => c.id),
      );
    });
    if (!started) throw new DomainError('conflict', 'The audiobook changed meanwhile; try again');
    await deps.dispatch();
    return chapters.length === 0 ? [1] : chapters.map((c, i) => c.chapterOrder ?? i + 1).sort((a, b) => a - b);
  }

  return {
    /** Starts the conversion of the changed chapters; answers their numbers (from 1), empty when none changed. */
    async reconvert(userId: string, jobId: string): Promise<number[]> {
      const job = await finishedBook(userId, jobId);
      return restart(userId, job, await changedParts(job, await deps.pronunciations.forUser(userId)));
    },
    restart,
  };
}

export type Reconverter = ReturnType<typeof createReconverter>;
