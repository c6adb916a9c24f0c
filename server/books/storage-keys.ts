/**
 * Where a book's files that its readers open live in storage. A book's files sit in its job's
 * folder (`jobs/<id>/`, deleted with the job); the jobs module spells the rest of a job's keys
 * (server/jobs/storage-keys.ts, which spells these through this file).
 */

/** The folder of everything a book's job wrote. */
export const bookFolder = (jobId: string) => `jobs/${jobId}/`;
/** The sentence timing map beside an MP3 (./timing.ts). */
export const timingKey = (audio: string) => `${audio}.timing.json`;
/** The typographic cover drawn for a finished book that has none, kept on its first request. */
export const generatedCoverKey = (jobId: string) => `${bookFolder(jobId)}cover.svg`;
/** The cover as a JPEG for tags, the M4B and feeds (server/exports/cover.ts), made once per book. */
export const coverJpegKey = (jobId: string) => `${bookFolder(jobId)}cover.jpg`;
/** A book's cast (server/cast): who speaks each quoted span of its chapters, and in which voice. */
export const castKey = (jobId: string) => `${bookFolder(jobId)}cast.json`;
