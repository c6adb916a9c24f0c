import { WAITING_TURNS } from '../jobs/repository/jobs/fair-queue';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import type { Db } from './types';

// The queries that run hot under load read an index, not the whole table. Sequential scans are
// turned off so that the plan on an empty table is the plan on a large one.
let db: Db;
beforeAll(async () => {
  db = await openPglite();
  await migrate(db);
  await db.exec('SET enable_seqscan = off');
});
afterAll(() => db.close());

async function plan(sql: string): Promise<string> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe('indexes of hot queries', () => {
  it("the fair queue counts each reader's jobs handed over through their own index", async () => {
    const dispatch = await plan(
      `${WAITING_TURNS} SELECT id, turn FROM turns WHERE turn <= 2 ORDER BY turn, created_at, id LIMIT 500`,
    );
    expect(dispatch).toContain('jobs_handed_over_idx');
    expect(dispatch).toContain('jobs_waiting_idx');
    expect(dispatch).not.toContain('Seq Scan');
  });

  it("a book's listeners' places are found by the book", async () => {
    const remove = await plan(
      "DELETE FROM playback_progress WHERE job_id = '00000000-0000-4000-8000-000000000000'::uuid",
    );
    expect(remove).toContain('playback_progress_job_idx');
  });
});
