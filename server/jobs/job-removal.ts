/** Deleting a finished job for good, and deleting an upload no job was made from. */
import { DomainError } from '../errors';
import { ownedJob, type JobServiceDeps } from './job-access';
import { isUploadKey, jobFolder, timingKey, uploadCoverKey, uploadInfoKey } from './storage-keys';
import { isActive } from './types';

type RemovalDeps = Pick<JobServiceDeps, 'repo' | 'storage' | 'onCancelled'>;

/** An upload's text and what was read from its book (chapters, cover). */
async function deleteUploadFiles({ storage }: RemovalDeps, fileKey: string) {
  for (const key of [fileKey, uploadInfoKey(fileKey), uploadCoverKey(fileKey)]) await storage.delete(key);
}

/**
 * A finished (COMPLETED, FAILED or CANCELLED) top-level job is deleted for good: the rows of the
 * job, its chapters and steps, the user's listening progress (all by foreign-key cascade), every
 * stored file under each job's folder (text, audio, timing maps, covers) and the upload it was
 * made from when no other job uses it. Chapters of a failed book that still run are stopped.
 */
export async function removeJob(deps: RemovalDeps, userId: string, jobId: string): Promise<void> {
  const { repo, storage } = deps;
  const job = await ownedJob(repo, userId, jobId);
  if (isActive(job.status))
    throw new DomainError('conflict', `Cannot delete a job that is ${job.status}; cancel it first`);
  if (job.parentJobId !== null) {
    throw new DomainError('conflict', 'This job is a chapter of a book: delete the book to remove it');
  }
  const rows = await repo.deleteWithChapters(jobId, userId);
  const ids = rows.map((r) => r.id);
  deps.onCancelled?.(ids);
  for (const row of rows) {
    await storage.deletePrefix(jobFolder(row.id));
    // Audio stored outside the job's folder (older layouts) goes too, with its timing map.
    if (row.outputFileKey !== null && !isUploadKey(row.outputFileKey)) {
      await storage.delete(row.outputFileKey);
      await storage.delete(timingKey(row.outputFileKey));
    }
  }
  const upload = job.inputFileKey;
  if (upload !== null && isUploadKey(upload) && (await repo.jobs.madeFrom(upload)) === null) {
    await repo.uploads.remove(upload);
    await deleteUploadFiles(deps, upload);
  }
}

/** Deletes one of the user's uploads; one that a job was made from goes with that job. */
export async function removeUpload(deps: RemovalDeps, userId: string, fileKey: string): Promise<void> {
  const { repo } = deps;
  if ((await repo.uploads.owner(fileKey)) !== userId) throw new DomainError('not_found', 'File not found');
  const user = await repo.jobs.madeFrom(fileKey);
  if (user !== null) {
    throw new DomainError('conflict', `This file is the text of the job "${user.title}"; delete that job to remove it`);
  }
  await repo.uploads.remove(fileKey);
  await deleteUploadFiles(deps, fileKey);
}
