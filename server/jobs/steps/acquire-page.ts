/**
 * The acquire_content step of a web page's job: the page is downloaded in one of the worker's
 * download slots, its article read and its plan decided; then the space its text and audio will
 * take is reserved against its reader's storage quota (../quotas.ts, ../space.ts), and only then is
 * its text stored. A page whose estimate passes the quota fails the job with the estimate and the
 * space left in words, and nothing of it is stored.
 */
import { fetchPage } from '../../ingest/fetch-page';
import { normaliseText } from '../../ingest/text-file';
import { documentReader } from '../../ingest/reader';
import type { VoiceSettings } from '../../tts/select';
import { jobPlan, planSourceOffThread, storedPlan } from '../plan';
import type { Quotas } from '../quotas';
import type { JobRepository } from '../repository';
import { reservationOf, voiceFigures } from '../space';
import { sourceKey } from '../storage-keys';
import type { JobPlan, JobRecord } from '../types';
import type { FileStorage } from '../../storage/types';

/** A counter of download slots: take one without waiting, or learn that all are busy. */
export interface FetchSlots {
  /** A release function, or null when every slot is busy. */
  tryTake(): (() => void) | null;
}

export function createFetchSlots(size: number): FetchSlots {
  let busy = 0;
  return {
    tryTake() {
      if (busy >= size) return null;
      busy += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        busy -= 1;
      };
    },
  };
}

/** How long a web-page job that found every download slot busy waits before it asks again. */
export const FETCH_RETRY_SECONDS = 2;

export interface PageDeps {
  repo: JobRepository;
  storage: FileStorage;
  voices: VoiceSettings;
  quotas: Pick<Quotas, 'keepWithin'>;
  allowLoopbackFetch: boolean;
  fetchTimeoutMs: number;
  fetchSlots: FetchSlots;
  runLater(jobId: string, seconds: number): Promise<void>;
  /** Keeps the plan of a job whose text has just become known (a book's steps change with it). */
  keepPlan(job: JobRecord, plan: JobPlan): Promise<void>;
}

/** The page's article, or null when every download slot is busy (the job then runs again shortly). */
async function readPage(deps: PageDeps, job: JobRecord, signal: AbortSignal) {
  // Every download slot is busy (slow sites): do not sit in a worker slot waiting for one.
  const release = deps.fetchSlots.tryTake();
  if (release === null) return null;
  let page;
  try {
    page = await fetchPage(job.config.source_url ?? '', {
      allowLoopback: deps.allowLoopbackFetch,
      timeoutMs: deps.fetchTimeoutMs,
      signal,
    });
  } finally {
    release();
  }
  // Parsed in the document reader's thread: a large page never holds the event loop.
  const article = await documentReader().extractArticle(page.body, page.finalUrl, page.contentType);
  return { finalUrl: page.finalUrl, title: article.title, text: normaliseText(article.text) };
}

export async function acquirePage(deps: PageDeps, job: JobRecord, signal: AbortSignal) {
  const { repo, storage } = deps;
  const page = await readPage(deps, job, signal);
  if (page === null) {
    await deps.runLater(job.id, FETCH_RETRY_SECONDS);
    return { wait: true };
  }
  const { text } = page;
  const title = job.config.title_from_page && page.title.trim() !== '' ? page.title.trim().slice(0, 200) : undefined;
  // Only now is the text known: the job's plan is decided, once, as for pasted text.
  const kept = storedPlan(job.config);
  const plan =
    kept ?? jobPlan(await planSourceOffThread(text, title ?? job.title, null, job.config.job_type_requested));
  const bytes = Buffer.from(text, 'utf8');
  const voice = job.config.voice_config;
  const reserved = reservationOf(
    plan.kind,
    { characters: text.length, bytes: bytes.byteLength },
    voiceFigures(deps.voices, voice?.provider ?? job.config.provider ?? 'openai', voice?.voice_id),
  );
  await repo.transaction((tx) =>
    deps.quotas.keepWithin(tx, job.userId, plan.kind, async () => {
      await tx.jobs.mergeConfig(job.id, { source_bytes: bytes.byteLength });
      await tx.jobs.reserve(job.id, reserved);
    }),
  );
  const key = sourceKey(job.id);
  await storage.write(key, bytes);
  await repo.jobs.patch(job.id, { inputFileKey: key, ...(title !== undefined && { title }) });
  if (kept === null) await deps.keepPlan({ ...job, ...(title !== undefined && { title }) }, plan);
  return {
    metadata: {
      source: 'url',
      url: job.config.source_url ?? '',
      final_url: page.finalUrl,
      page_title: page.title,
      characters: text.length,
    },
  };
}
