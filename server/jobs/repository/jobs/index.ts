/**
 * The jobs table's repository: the ONLY code that reads or writes `jobs` (its lease columns
 * included); server/db/migrations/index.ts names each table's owner and
 * tests/unit/table-owners.test.ts keeps it so. Its queries, by role: `records.ts` (create, read,
 * change), `books.ts` (the read model of a book), `changes.ts` (cancel, retry, reopen, delete),
 * `usage.ts` (the quotas' and the metrics' counts), `list.ts` (the job list's pages), `runs.ts` (what the
 * runner keeps: status, progress, chapter scheduling, leases) and `fair-queue.ts` (which waiting
 * jobs the workers get next). The jobs module reaches it through
 * its repository (../index.ts); listening, progress, the voice assistant and the metrics read it.
 */
import type { DbExecutor } from '../../../db/types';
import { jobBooks } from './books';
import { jobChanges } from './changes';
import { jobFairQueue } from './fair-queue';
import { jobList } from './list';
import { jobRecords } from './records';
import { jobRuns } from './runs';
import { jobUsage } from './usage';

export type { ListFilter } from './list';
export type { NewJobRow } from './records';

/** The jobs table's queries on one executor (the database, or one transaction). */
export function jobsTable(x: DbExecutor) {
  return {
    ...jobRecords(x),
    ...jobBooks(x),
    ...jobChanges(x),
    ...jobUsage(x),
    ...jobList(x),
    ...jobRuns(x),
    ...jobFairQueue(x),
  };
}
