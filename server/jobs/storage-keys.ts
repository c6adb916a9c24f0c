/**
 * Where every file of a job and of an upload lives in storage: the only module that spells a key,
 * with server/books/storage-keys.ts for the keys a book's readers open (re-exported here).
 * A job's files sit in its folder (`jobs/<id>/`), so deleting the job deletes the folder; an
 * upload's sit beside its text (`uploads/<uuid>.txt`), owned through `uploaded_files`.
 */
import { randomUUID } from 'node:crypto';
import { bookFolder } from '../books/storage-keys';

export { coverJpegKey, generatedCoverKey, timingKey } from '../books/storage-keys';

const JOBS = 'jobs/';
const UPLOADS = 'uploads/';

/** The folder of everything a job wrote. */
export const jobFolder = bookFolder;
/** The job's own text: pasted, chosen chapters of an upload, a web page's article or a chapter's part of its book. */
export const sourceKey = (jobId: string) => `${jobFolder(jobId)}source.txt`;
/** The finished MP3 (a book's: its chapters joined). */
export const audioKey = (jobId: string) => `${jobFolder(jobId)}audio.mp3`;
/**
 * A book's first chapter's opening (its first minutes as an MP3 of their own, playable before the
 * chapter is); deleted when its book is joined.
 */
export const openingKey = (jobId: string) => `${jobFolder(jobId)}opening.mp3`;
/** The cover supplied with the job's input (an EPUB's), copied from its upload. */
export const coverKey = (jobId: string) => `${jobFolder(jobId)}cover`;
/**
 * A download of the book, a new name per build: a build that lost its row deletes only its own
 * file, never the one a newer build wrote (server/exports/worker.ts).
 */
export const exportKey = (jobId: string, format: string, extension: string) =>
  `${jobFolder(jobId)}exports/${format}-${randomUUID()}.${extension}`;
/** A job's own text (not an upload's): the file a missing-text error speaks of. */
export const isSourceKey = (key: string) => key.startsWith(JOBS) && key.endsWith('/source.txt');

/** A new upload's text: its normalised UTF-8 text. */
export const newUploadKey = () => `${UPLOADS}${randomUUID()}.txt`;
export const isUploadKey = (key: string) => key.startsWith(UPLOADS);
/** What the upload's format said of the book (format, title, author, chapters, cover), beside its text. */
export const uploadInfoKey = (uploadKey: string) => uploadKey.replace(/\.txt$/, '.book.json');
/** The cover image found in the upload, beside its text. */
export const uploadCoverKey = (uploadKey: string) => uploadKey.replace(/\.txt$/, '.cover');
