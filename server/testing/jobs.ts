import type { TestApp } from './app';

export const SHORT_TEXT =
  'The lighthouse keeper climbed the stairs at dusk. He lit the great lamp and watched the ships. ' +
  'The sea was calm that night, and the stars were bright above the bay.';

/** Registers and signs in a user; returns the bearer headers. */
export async function signIn(t: TestApp, email: string): Promise<{ authorization: string }> {
  await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email, password: 'correct horse' } });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: 'correct horse' },
  });
  const token = (res.json() as { access_token: string }).access_token;
  return { authorization: `Bearer ${token}` };
}

export interface JobBody {
  id: string;
  user_id: string;
  status: string;
  progress: number;
  title: string;
  job_type: string;
  error_message: string | null;
  output_file_key: string | null;
  input_file_key: string | null;
  duration: number | null;
  config: Record<string, unknown>;
  result_data: Record<string, unknown> & {
    duration_seconds?: number;
    chapters?: { title: string; order: number; duration: number; file_key: string; job_id?: string }[];
    child_job_ids?: string[];
  };
  steps: {
    step_name: string;
    status: string;
    step_order: number;
    error_message: string | null;
    step_metadata: Record<string, unknown>;
    started_at: string | null;
    completed_at: string | null;
  }[];
  children: { id: string; title: string; status: string; duration: number | null }[];
  parent: { id: string; title: string; user_id: string; status: string; progress: number } | null;
}

export async function createJob(t: TestApp, headers: Record<string, string>, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/jobs', headers, payload });
}

export async function getJob(t: TestApp, headers: Record<string, string>, id: string): Promise<JobBody> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers });
  if (res.statusCode !== 200) throw new Error(`GET job ${id}: ${res.statusCode} ${res.body}`);
  return res.json() as JobBody;
}

/** Polls the API until the job leaves PENDING/PROCESSING (or `until` holds). */
export async function waitForJob(
  t: TestApp,
  headers: Record<string, string>,
  id: string,
  until: (job: JobBody) => boolean = (j) => j.status !== 'PENDING' && j.status !== 'PROCESSING',
  timeoutMs = 60_000,
): Promise<JobBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(t, headers, id);
    if (until(job)) return job;
    if (Date.now() > deadline)
      throw new Error(
        `Job ${id} still ${job.status} (${job.progress}%) after ${timeoutMs} ms: ${JSON.stringify(job.steps.map((s) => [s.step_name, s.status, s.error_message]))}`,
      );
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A text of about `sentences` sentences (for jobs that must run a while). */
export function longText(sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i += 1)
    out.push(`Sentence number ${i + 1} tells of the river that ran past the old mill in the valley.`);
  return out.join(' ');
}

/**
 * A book converted through the API to the end: created with `payload`, waited for (up to
 * `timeoutMs`) and checked COMPLETED; its id.
 */
export async function convertedBook(
  t: TestApp,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
  timeoutMs = 90_000,
): Promise<string> {
  const created = await createJob(t, headers, payload);
  if (created.statusCode !== 201) throw new Error(`POST /jobs: ${created.statusCode} ${created.body}`);
  const id = (created.json() as { id: string }).id;
  const done = await waitForJob(t, headers, id, undefined, timeoutMs);
  if (done.status !== 'COMPLETED') throw new Error(`Job ${id} ended ${done.status}: ${done.error_message ?? ''}`);
  return id;
}
