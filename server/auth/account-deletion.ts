import { DomainError } from '../errors';
import { isUploadKey, jobFolder, timingKey, uploadCoverKey, uploadInfoKey } from '../jobs/storage-keys';
import type { FileStorage } from '../storage/types';

/**
 * Deletes an account for good. Every session is signed out first (no new work starts for it), its
 * unfinished conversions are cancelled (no worker writes for it afterwards), what it stores is
 * listed, then the user row goes, and with it, by foreign-key cascade, every row the account owns:
 * books and their chapters and steps, uploads, downloads, feeds, conversations, listening
 * progress, pronunciations, reset links and the quota's upload log. Last, every stored file of
 * those books and uploads (text, audio, timing maps, covers, downloads) is deleted. Each table is
 * read and written by its own repository.
 */
export function createAccountDeletion(deps: {
  users: { newSessionGeneration(id: string): Promise<number>; delete(id: string): Promise<void> };
  jobs: {
    unfinishedIds(userId: string): Promise<string[]>;
    storedOf(userId: string): Promise<{ id: string; outputFileKey: string | null }[]>;
  };
  uploads: { keysOf(userId: string): Promise<string[]> };
  storage: FileStorage;
  /** Cancels one of the user's unfinished top-level jobs (the jobs service, which stops its work). */
  cancelJob: (userId: string, jobId: string) => Promise<unknown>;
  /** Called once the account's rows are gone (the auth service forgets it). */
  onDeleted: (userId: string) => void;
  log: { warn(details: object, message: string): void };
}) {
  const { storage } = deps;
  return async function deleteAccount(userId: string): Promise<void> {
    await deps.users.newSessionGeneration(userId);
    for (const jobId of await deps.jobs.unfinishedIds(userId)) {
      await deps.cancelJob(userId, jobId).catch((error: unknown) => {
        // A job that finished meanwhile cannot be cancelled: it is deleted with the rest.
        if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      });
    }
    const jobs = await deps.jobs.storedOf(userId);
    const uploads = await deps.uploads.keysOf(userId);
    await deps.users.delete(userId);
    deps.onDeleted(userId);
    const keys: string[] = [];
    for (const job of jobs) {
      // Audio stored outside the job's folder (older layouts) goes too, with its timing map.
      if (job.outputFileKey !== null && !isUploadKey(job.outputFileKey)) {
        keys.push(job.outputFileKey, timingKey(job.outputFileKey));
      }
    }
    for (const key of uploads) keys.push(key, uploadInfoKey(key), uploadCoverKey(key));
    const failures: unknown[] = [];
    for (const job of jobs) await storage.deletePrefix(jobFolder(job.id)).catch((e: unknown) => failures.push(e));
    for (const key of keys) await storage.delete(key).catch((e: unknown) => failures.push(e));
    if (failures.length > 0) {
      deps.log.warn({ err: failures[0], failures: failures.length }, 'files of a deleted account were left in storage');
    }
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
