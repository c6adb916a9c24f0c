/**
 * The crowd bench's listeners, seeded rather than signed up (a sign-up hashes a password for a
 * third of a second; thousands would take the run): readers copied from a template reader in the
 * database, each with its own copy of the template's finished book (its row and its files in the
 * store, under the copy's own keys, as real books are), and an access token signed with the API's
 * secret as a sign-in would.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type pg from 'pg';
import { createTokenService } from '../server/auth/tokens';
import { apiClient } from '../tests/support/cluster';
import { S3_TEST_CREDENTIALS, type TestS3 } from '../tests/support/s3';

export interface Listener {
  api: string;
  token: string;
  jobId: string;
}

/** Writes at once to the store. */
const WRITES_AT_ONCE = 8;

export async function seedListeners(options: {
  db: pg.Client;
  s3: TestS3;
  /** The store's prefix of the app's keys (STORAGE_URL's path). */
  prefix: string;
  count: number;
  template: { userId: string; jobId: string };
  apiUrls: string[];
  jwtSecret: string;
}): Promise<Listener[]> {
  const { db, s3, prefix, count, template, apiUrls } = options;
  const { rows: columns } = await db.query<{ column_name: string; data_type: string }>(
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'jobs' ORDER BY ordinal_position",
  );
  const { rows: users } = await db.query<{ id: string }>(
    `INSERT INTO users (id, email, password_hash, session_generation)
     SELECT gen_random_uuid(), 'listener-' || gen_random_uuid() || '@example.com', u.password_hash, 0
       FROM users u, generate_series(1, $2::int) WHERE u.id = $1
     RETURNING id`,
    [template.userId, count],
  );
  // Every key and reference to the template's id names the copy's id instead.
  const select = columns.map(({ column_name: name, data_type: type }) => {
    if (name === 'id') return 'x.jid';
    if (name === 'user_id') return 'x.uid';
    if (type === 'text') return `replace(j.${name}, $3, x.jid::text)`;
    if (type === 'jsonb') return `replace(j.${name}::text, $3, x.jid::text)::jsonb`;
    return `j.${name}`;
  });
  const { rows: jobs } = await db.query<{ id: string; user_id: string }>(
    `INSERT INTO jobs (${columns.map((c) => c.column_name).join(', ')})
     SELECT ${select.join(', ')}
       FROM jobs j, (SELECT uid, gen_random_uuid() AS jid FROM unnest($2::uuid[]) AS u(uid)) AS x
      WHERE j.id = $1
     RETURNING id, user_id`,
    [template.jobId, users.map((u) => u.id), template.jobId],
  );

  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
  });
  try {
    // Each file of the template read once, then written under every copy's keys (s3rver's
    // CopyObject fails under concurrent use; a write that fails is tried again).
    const folder = `${prefix}/jobs/${template.jobId}/`;
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: folder }));
    const files = await Promise.all(
      (listed.Contents ?? []).map(async (o) => {
        const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: o.Key! }));
        return { name: o.Key!.slice(folder.length), body: await got.Body!.transformToByteArray() };
      }),
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITES_AT_ONCE }, async () => {
        for (let i = next++; i < jobs.length; i = next++) {
          for (const file of files) {
            const put = new PutObjectCommand({
              Bucket: s3.bucket,
              Key: `${prefix}/jobs/${jobs[i]!.id}/${file.name}`,
              Body: file.body,
            });
            for (let attempt = 1; ; attempt += 1) {
              try {
                await client.send(put);
                break;
              } catch (error) {
                if (attempt === 5) throw error;
                await new Promise((r) => setTimeout(r, 100 * attempt));
              }
            }
          }
        }
      }),
    );
  } finally {
    client.destroy();
  }

  const tokens = createTokenService({
    secret: new TextEncoder().encode(options.jwtSecret),
    ttlSeconds: 4 * 3600,
    now: () => new Date(),
  });
  return Promise.all(
    jobs.map(async (j, i): Promise<Listener> => ({
      api: apiUrls[i % apiUrls.length]!,
      token: (await tokens.issue(j.user_id, 0)).token,
      jobId: j.id,
    })),
  );
}

/** A reader signed up through the API, and their client. */
export async function signedUp(apiUrl: string, email: string) {
  const client = apiClient(apiUrl);
  await client.signUp(email);
  return client;
}

/** Signs readers up one after the other: each sign-up hashes a password for a third of a second. */
export async function signUpAll(count: number, who: (i: number) => [string, string]) {
  const clients: ReturnType<typeof apiClient>[] = [];
  for (let i = 0; i < count; i += 1) clients.push(await signedUp(...who(i)));
  return clients;
}
