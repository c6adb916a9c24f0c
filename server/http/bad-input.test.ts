import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createJob, SHORT_TEXT, signIn } from '../testing/jobs';
import { createTestApp, type TestApp } from '../testing/app';

/**
 * A NUL character (U+0000) in any string the contract accepts never gives 500 (PostgreSQL text
 * cannot hold one): free text (content, description) loses it, anything else is refused with 422.
 * The cases are checked against the contract itself, so a string field added to it without a
 * case here fails this test.
 */

type Schema = Record<string, unknown>;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const contract = parse(readFileSync(path.join(root, 'contracts/openapi.yaml'), 'utf8')) as Schema;

function resolve(node: Schema): Schema {
  const ref = node.$ref as string | undefined;
  if (ref === undefined) return node;
  let target: unknown = contract;
  for (const part of ref.replace(/^#\//, '').split('/')) target = (target as Schema)[part];
  return resolve(target as Schema);
}

/** `operationId location name` for every string the contract lets a client send (headers aside). */
function contractStringFields(): string[] {
  const out: string[] = [];
  const walk = (schema: Schema, prefix: string, op: string) => {
    const s = resolve(schema);
    for (const part of (s.allOf as Schema[] | undefined) ?? []) walk(part, prefix, op);
    if (s.type === 'string' && s.format !== 'binary') out.push(`${op} body ${prefix}`);
    // A list body (pronunciations): its items' fields, named as the items' own.
    if (s.type === 'array' && s.items !== undefined) walk(s.items as Schema, prefix, op);
    if (s.type === 'object') {
      for (const [name, child] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
        walk(child, prefix ? `${prefix}.${name}` : name, op);
      }
      const extra = s.additionalProperties;
      if (extra !== undefined && typeof extra === 'object' && resolve(extra as Schema).type === 'string') {
        out.push(`${op} body ${prefix}.<key>`, `${op} body ${prefix}.<value>`);
      }
    }
  };
  for (const item of Object.values(contract.paths as Record<string, Schema>)) {
    const shared = (item.parameters as Schema[] | undefined) ?? [];
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const op = (operation as Schema).operationId as string;
      for (const p of [...shared, ...(((operation as Schema).parameters as Schema[] | undefined) ?? [])].map(resolve)) {
        if (p.in !== 'header' && resolve(p.schema as Schema).type === 'string')
          out.push(`${op} ${p.in} ${p.name as string}`);
      }
      const body = (operation as Schema).requestBody as Schema | undefined;
      const content = body === undefined ? undefined : (resolve(body).content as Record<string, { schema: Schema }>);
      const json = content?.['application/json']?.schema;
      if (json !== undefined) walk(json, '', op);
      // multipart/form-data carries only the binary file; its filename is tested below.
    }
  }
  return out.sort();
}

const NUL = '\u0000';
const ID = '00000000-0000-4000-8000-000000000000';

interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: Record<string, unknown> | Record<string, unknown>[];
  public?: boolean;
  /** What answers: 'refuse' (422 naming the field), 'strip' (accepted without the NUL), or a 4xx of the route's own. */
  expect: 'refuse' | 'strip' | number;
}

const q = (value: string) => encodeURIComponent(value);
const bad = `a${NUL}b`;
const job = (patch: Record<string, unknown>) => ({ title: 'Nul test', content: SHORT_TEXT, ...patch });

const CASES: Record<string, Case> = {
  'register body email': {
    method: 'POST',
    url: '/api/v1/auth/register',
    body: { email: `a${NUL}@example.com`, password: 'long enough' },
    public: true,
    expect: 'refuse',
  },
  'register body password': {
    method: 'POST',
    url: '/api/v1/auth/register',
    body: { email: 'nul@example.com', password: `long${NUL}enough` },
    public: true,
    expect: 'refuse',
  },
  'login body email': {
    method: 'POST',
    url: '/api/v1/auth/login',
    body: { email: `a${NUL}@example.com`, password: 'x' },
    public: true,
    expect: 'refuse',
  },
  'login body password': {
    method: 'POST',
    url: '/api/v1/auth/login',
    body: { email: 'nul@example.com', password: bad },
    public: true,
    expect: 'refuse',
  },
  'changePassword body current_password': {
    method: 'PUT',
    url: '/api/v1/auth/password',
    body: { current_password: bad, new_password: 'a much longer phrase' },
    expect: 'refuse',
  },
  'changePassword body new_password': {
    method: 'PUT',
    url: '/api/v1/auth/password',
    body: { current_password: 'whatever it is', new_password: `a much${NUL}longer phrase` },
    expect: 'refuse',
  },
  'requestPasswordReset body email': {
    method: 'POST',
    url: '/api/v1/auth/password-reset',
    body: { email: `a${NUL}@example.com` },
    public: true,
    expect: 'refuse',
  },
  'confirmPasswordReset body token': {
    method: 'POST',
    url: '/api/v1/auth/password-reset/confirm',
    body: { token: `${'t'.repeat(43)}${NUL}`, password: 'a much longer phrase' },
    public: true,
    expect: 'refuse',
  },
  'confirmPasswordReset body password': {
    method: 'POST',
    url: '/api/v1/auth/password-reset/confirm',
    body: { token: 't'.repeat(43), password: `a much${NUL}longer phrase` },
    public: true,
    expect: 'refuse',
  },
  'deleteAccount body email': {
    method: 'POST',
    url: '/api/v1/auth/account/delete',
    body: { email: `nul${NUL}@example.com` },
    expect: 'refuse',
  },
  'putPreferences body default_voice.provider': {
    method: 'PUT',
    url: '/api/v1/auth/preferences',
    body: { default_voice: { provider: `openai${NUL}` } },
    expect: 'refuse',
  },
  'putPreferences body default_voice.voice_id': {
    method: 'PUT',
    url: '/api/v1/auth/preferences',
    body: { default_voice: { provider: 'openai', voice_id: bad } },
    expect: 'refuse',
  },
  'deleteFile path fileKey': { method: 'DELETE', url: `/api/v1/files/uploads/${q(bad)}.txt`, expect: 'refuse' },
  'listJobs query q': { method: 'GET', url: `/api/v1/jobs?q=${q(bad)}`, expect: 'refuse' },
  'listJobs query status': { method: 'GET', url: `/api/v1/jobs?status=${q(`running${NUL}`)}`, expect: 'refuse' },
  'listJobs query sort': { method: 'GET', url: `/api/v1/jobs?sort=${q(`title${NUL}`)}`, expect: 'refuse' },
  'listJobs query order': { method: 'GET', url: `/api/v1/jobs?order=${q(`asc${NUL}`)}`, expect: 'refuse' },
  'createJob body title': { method: 'POST', url: '/api/v1/jobs', body: job({ title: bad }), expect: 'refuse' },
  'createJob body chapter_titles.title': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ chapter_titles: [{ index: 0, title: bad }] }),
    expect: 'refuse',
  },
  'createJob body description': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ description: `A${NUL} story` }),
    expect: 'strip',
  },
  'createJob body content': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ content: `${SHORT_TEXT}${NUL}${SHORT_TEXT}` }),
    expect: 'strip',
  },
  'createJob body file_key': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ content: undefined, file_key: `uploads/${bad}.txt` }),
    expect: 'refuse',
  },
  'createJob body url': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ content: undefined, url: `https://example.com/${bad}` }),
    expect: 'refuse',
  },
  'createJob body job_type': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ job_type: `book_processing${NUL}` }),
    expect: 'refuse',
  },
  'createJob body voice_config.provider': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ voice_config: { provider: `openai${NUL}` } }),
    expect: 'refuse',
  },
  'createJob body voice_config.voice_id': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ voice_config: { provider: 'openai', voice_id: `alloy${NUL}` } }),
    expect: 'refuse',
  },
  'createJob body voice_config.voice_settings.<key>': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ voice_config: { provider: 'openai', voice_settings: { [`sp${NUL}eed`]: '1' } } }),
    expect: 'refuse',
  },
  'createJob body voice_config.voice_settings.<value>': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ voice_config: { provider: 'openai', voice_settings: { speed: `1${NUL}` } } }),
    expect: 'refuse',
  },
  'createJob body voice_config.cast_voices.<key>': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ voice_config: { provider: 'openai', cast: true, cast_voices: { [`mar${NUL}ta`]: 'nova' } } }),
    expect: 'refuse',
  },
  'createJob body voice_config.cast_voices.<value>': {
    method: 'POST',
    url: '/api/v1/jobs',
    body: job({ voice_config: { provider: 'openai', cast: true, cast_voices: { marta: `nova${NUL}` } } }),
    expect: 'refuse',
  },
  'previewJob body title': { method: 'POST', url: '/api/v1/jobs/preview', body: job({ title: bad }), expect: 'refuse' },
  'previewJob body chapter_titles.title': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ chapter_titles: [{ index: 0, title: bad }] }),
    expect: 'refuse',
  },
  'previewJob body description': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ description: `A${NUL} story` }),
    expect: 'strip',
  },
  'previewJob body content': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ content: `${SHORT_TEXT}${NUL}${SHORT_TEXT}` }),
    expect: 'strip',
  },
  'previewJob body file_key': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ content: undefined, file_key: `uploads/${bad}.txt` }),
    expect: 'refuse',
  },
  'previewJob body url': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ content: undefined, url: `https://example.com/${bad}` }),
    expect: 'refuse',
  },
  'previewJob body job_type': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ job_type: `book_processing${NUL}` }),
    expect: 'refuse',
  },
  'previewJob body voice_config.provider': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ voice_config: { provider: `openai${NUL}` } }),
    expect: 'refuse',
  },
  'previewJob body voice_config.voice_id': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ voice_config: { provider: 'openai', voice_id: `alloy${NUL}` } }),
    expect: 'refuse',
  },
  'previewJob body voice_config.voice_settings.<key>': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ voice_config: { provider: 'openai', voice_settings: { [`sp${NUL}eed`]: '1' } } }),
    expect: 'refuse',
  },
  'previewJob body voice_config.voice_settings.<value>': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ voice_config: { provider: 'openai', voice_settings: { speed: `1${NUL}` } } }),
    expect: 'refuse',
  },
  'previewJob body voice_config.cast_voices.<key>': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ voice_config: { provider: 'openai', cast: true, cast_voices: { [`mar${NUL}ta`]: 'nova' } } }),
    expect: 'refuse',
  },
  'previewJob body voice_config.cast_voices.<value>': {
    method: 'POST',
    url: '/api/v1/jobs/preview',
    body: job({ voice_config: { provider: 'openai', cast: true, cast_voices: { marta: `nova${NUL}` } } }),
    expect: 'refuse',
  },
  'getAudioCover path jobId': { method: 'GET', url: `/api/v1/audio/${q(`${ID}${NUL}`)}/cover`, expect: 'refuse' },
  'getJob path jobId': { method: 'GET', url: `/api/v1/jobs/${q(`${ID}${NUL}`)}`, expect: 'refuse' },
  'cancelJob path jobId': { method: 'DELETE', url: `/api/v1/jobs/${q(`${ID}${NUL}`)}`, expect: 'refuse' },
  'getJobSteps path jobId': { method: 'GET', url: `/api/v1/jobs/${q(`${ID}${NUL}`)}/steps`, expect: 'refuse' },
  'retryJob path jobId': { method: 'POST', url: `/api/v1/jobs/${q(`${ID}${NUL}`)}/retry`, expect: 'refuse' },
  'reconvertJob path jobId': { method: 'POST', url: `/api/v1/jobs/${q(`${ID}${NUL}`)}/reconvert`, expect: 'refuse' },
  'getVoiceSample path provider': { method: 'GET', url: `/api/v1/voices/${q(bad)}/en-us/sample`, expect: 'refuse' },
  'getVoiceSample path voiceId': { method: 'GET', url: `/api/v1/voices/offline/${q(bad)}/sample`, expect: 'refuse' },
  'putPronunciations body text': {
    method: 'PUT',
    url: '/api/v1/pronunciations',
    body: [{ text: bad, say_as: 'said' }],
    expect: 'refuse',
  },
  'putPronunciations body say_as': {
    method: 'PUT',
    url: '/api/v1/pronunciations',
    body: [{ text: 'word', say_as: bad }],
    expect: 'refuse',
  },
  'getAudioStream path jobId': { method: 'GET', url: `/api/v1/audio/${q(`${ID}${NUL}`)}/stream`, expect: 'refuse' },
  'getAudioMetadata path jobId': { method: 'GET', url: `/api/v1/audio/${q(`${ID}${NUL}`)}/metadata`, expect: 'refuse' },
  'getAudioTranscript path jobId': {
    method: 'GET',
    url: `/api/v1/audio/${q(`${ID}${NUL}`)}/transcript`,
    expect: 'refuse',
  },
  'getAudioPlaylist path jobId': { method: 'GET', url: `/api/v1/audio/${q(`${ID}${NUL}`)}/playlist`, expect: 'refuse' },
  'getAudioCast path jobId': { method: 'GET', url: `/api/v1/audio/${q(`${ID}${NUL}`)}/cast`, expect: 'refuse' },
  'putAudioCast path jobId': {
    method: 'PUT',
    url: `/api/v1/audio/${q(`${ID}${NUL}`)}/cast`,
    body: { voices: { narrator: 'en-us+m3' } },
    expect: 'refuse',
  },
  'putAudioCast body voices.<key>': {
    method: 'PUT',
    url: `/api/v1/audio/${ID}/cast`,
    body: { voices: { [bad]: 'en-us+m3' } },
    expect: 'refuse',
  },
  'putAudioCast body voices.<value>': {
    method: 'PUT',
    url: `/api/v1/audio/${ID}/cast`,
    body: { voices: { narrator: bad } },
    expect: 'refuse',
  },
  'putAudioCast body overrides.speaker': {
    method: 'PUT',
    url: `/api/v1/audio/${ID}/cast`,
    body: { overrides: [{ chapter: 1, char_start: 0, speaker: bad }] },
    expect: 'refuse',
  },
  // The media route checks its own link (a signed URL): a key or signature with NUL is not a valid link.
  'getMedia path fileKey': {
    method: 'GET',
    url: `/api/v1/media/audio/${q(bad)}.mp3?expires=9999999999&sig=x`,
    public: true,
    expect: 403,
  },
  'getMedia query sig': {
    method: 'GET',
    url: `/api/v1/media/audio/a.mp3?expires=9999999999&sig=${q(bad)}`,
    public: true,
    expect: 403,
  },
  'getAudioDownload path jobId': {
    method: 'GET',
    url: `/api/v1/audio/${q(`${ID}${NUL}`)}/download?format=mp3`,
    expect: 'refuse',
  },
  'getAudioDownload query format': {
    method: 'GET',
    url: `/api/v1/audio/${ID}/download?format=${q(`mp3${NUL}`)}`,
    expect: 'refuse',
  },
  'getAudioDownload query sig': {
    method: 'GET',
    url: `/api/v1/audio/${ID}/download?format=mp3&expires=9999999999&sig=${q(bad)}`,
    public: true,
    expect: 'refuse',
  },
  'listAudioExports path jobId': { method: 'GET', url: `/api/v1/audio/${q(`${ID}${NUL}`)}/exports`, expect: 'refuse' },
  'startAudioExport path jobId': {
    method: 'POST',
    url: `/api/v1/audio/${q(`${ID}${NUL}`)}/exports`,
    body: { format: 'mp3' },
    expect: 'refuse',
  },
  'startAudioExport body format': {
    method: 'POST',
    url: `/api/v1/audio/${ID}/exports`,
    body: { format: `mp3${NUL}` },
    expect: 'refuse',
  },
  'cancelAudioExport path jobId': {
    method: 'DELETE',
    url: `/api/v1/audio/${q(`${ID}${NUL}`)}/exports/mp3`,
    expect: 'refuse',
  },
  'cancelAudioExport path format': {
    method: 'DELETE',
    url: `/api/v1/audio/${ID}/exports/${q(`mp3${NUL}`)}`,
    expect: 'refuse',
  },
  'createFeed body job_id': { method: 'POST', url: '/api/v1/feeds', body: { job_id: `${ID}${NUL}` }, expect: 'refuse' },
  'deleteFeed path feedId': { method: 'DELETE', url: `/api/v1/feeds/${q(`${ID}${NUL}`)}`, expect: 'refuse' },
  // The feeds' own addresses: the token is the credential, so they are public.
  'getFeedXml path token': {
    method: 'GET',
    url: `/feeds/${q(`${'t'.repeat(43)}${NUL}`)}.xml`,
    public: true,
    expect: 'refuse',
  },
  // An episode's or cover's link: the feed's id, the book, and a signature made for that file.
  ...Object.fromEntries(
    (['feedId', 'jobId', 'signature'] as const).flatMap((part) => {
      const value = (name: string, plain: string) => (name === part ? q(`${plain}${NUL}`) : plain);
      const link = (file: string, ext: string) =>
        `/feeds/episodes/${value('feedId', ID)}/${value('jobId', ID)}/${file}/${value('signature', 's'.repeat(43))}.${ext}`;
      return [
        [`getFeedEpisode path ${part}`, { method: 'GET', url: link('1', 'mp3'), public: true, expect: 'refuse' }],
        [`getFeedCover path ${part}`, { method: 'GET', url: link('cover', 'jpg'), public: true, expect: 'refuse' }],
        [
          `getFeedEpisodeChapters path ${part}`,
          { method: 'GET', url: link('1/chapters', 'json'), public: true, expect: 'refuse' },
        ],
        [
          `getFeedEpisodeTranscript path ${part}`,
          { method: 'GET', url: link('1/transcript', 'vtt'), public: true, expect: 'refuse' },
        ],
      ];
    }),
  ),
  'getProgress path jobId': { method: 'GET', url: `/api/v1/progress/${q(`${ID}${NUL}`)}`, expect: 'refuse' },
  'saveProgress path jobId': {
    method: 'PUT',
    url: `/api/v1/progress/${q(`${ID}${NUL}`)}`,
    body: { position_seconds: 1 },
    expect: 'refuse',
  },
  'saveProgress body current_chapter_id': {
    method: 'PUT',
    url: `/api/v1/progress/${ID}`,
    body: { position_seconds: 1, current_chapter_id: bad },
    expect: 'refuse',
  },
  'deleteProgress path jobId': { method: 'DELETE', url: `/api/v1/progress/${q(`${ID}${NUL}`)}`, expect: 'refuse' },
  'startVoiceAssistant body mode': {
    method: 'POST',
    url: '/api/v1/voice-assistant/start',
    body: { mode: `tutor${NUL}` },
    expect: 'refuse',
  },
  'startVoiceAssistant body jobId': {
    method: 'POST',
    url: '/api/v1/voice-assistant/start',
    body: { mode: 'tutor', jobId: `${ID}${NUL}` },
    expect: 'refuse',
  },
  'getVoiceConversation path jobId': {
    method: 'GET',
    url: `/api/v1/voice-assistant/conversations/${q(`${ID}${NUL}`)}`,
    expect: 'refuse',
  },
  'clearVoiceConversation path jobId': {
    method: 'DELETE',
    url: `/api/v1/voice-assistant/conversations/${q(`${ID}${NUL}`)}`,
    expect: 'refuse',
  },
};

let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none', QUOTA_ACTIVE_JOBS: '100' } });
  headers = await signIn(t, 'nul@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('NUL (U+0000) in every string field of the contract', () => {
  it('has a case for each string field the contract accepts', () => {
    expect(Object.keys(CASES).sort()).toEqual(contractStringFields());
  });

  it.each(Object.entries(CASES))('%s: never 500; refused with 422, or stripped from free text', async (name, c) => {
    const res = await t.app.inject({
      method: c.method,
      url: c.url,
      headers: c.public ? {} : headers,
      ...(c.body !== undefined && { payload: c.body }),
    });
    if (c.expect === 'refuse') {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail).toMatch(/ must not contain a NUL character \(U\+0000\)$/);
    } else if (c.expect === 'strip' && c.url === '/api/v1/jobs/preview') {
      // The preview reads the text without the NUL and creates nothing.
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body.includes('\\u0000')).toBe(false);
      expect((res.json() as { total_characters: number }).total_characters).toBeGreaterThan(0);
    } else if (c.expect === 'strip') {
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json() as { id: string; description: string | null; input_file_key: string };
      const field = name.split(' ').at(-1)!;
      if (field === 'description') expect(created.description).toBe('A story');
      const text = readFileSync(path.join(t.config.storageDir, created.input_file_key), 'utf8');
      expect(text.includes(NUL)).toBe(false);
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${created.id}`, headers })).statusCode).toBe(200);
    } else {
      expect(res.statusCode, res.body).toBe(c.expect);
    }
  });

  it('stores content without its NUL characters', async () => {
    const res = await createJob(t, headers, { title: 'Text with NUL', content: `${SHORT_TEXT}${NUL}${NUL} The end.` });
    expect(res.statusCode).toBe(201);
    const key = (res.json() as { input_file_key: string }).input_file_key;
    const text = readFileSync(path.join(t.config.storageDir, key), 'utf8');
    expect(text).toBe(`${SHORT_TEXT} The end.`);
  });

  it('answers a NUL in a field name of the body with 422 too', async () => {
    const res = await createJob(t, headers, { title: 'x', content: SHORT_TEXT, [`ti${NUL}tle`]: 'y' });
    expect(res.statusCode).toBe(422);
  });

  it('drops control characters from an uploaded file name', async () => {
    const boundary = 'nul-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="st${NUL}ory.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from(SHORT_TEXT),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().filename).toBe('story.txt');
  });
});

describe('malformed multipart uploads', () => {
  const post = (contentType: string, payload: string | Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, 'content-type': contentType },
      payload,
    });
  const part = (boundary: string, disposition: string, body: string) =>
    `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: text/plain\r\n\r\n${body}`;

  it('answers 400 for a multipart body without a boundary', async () => {
    const res = await post('multipart/form-data', part('x', 'form-data; name="file"; filename="a.txt"', SHORT_TEXT));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^The multipart body has no boundary/);
  });

  it('answers 400 for a body cut off in the middle of the file part, and stores nothing', async () => {
    const res = await post(
      'multipart/form-data; boundary=cut',
      part('cut', 'form-data; name="file"; filename="a.txt"', SHORT_TEXT),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^The multipart body is malformed or cut off/);
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_files');
    expect(rows[0]?.n).toBe(1); // the one of the file-name test above
  });

  it('answers 400 for a body cut off inside the part headers', async () => {
    const res = await post('multipart/form-data; boundary=cut', '--cut\r\nContent-Disposition: form-da');
    expect(res.statusCode).toBe(400);
  });

  it('answers 422 when there is no file part (only a field, or a file in another field, or nothing)', async () => {
    const field = await post(
      'multipart/form-data; boundary=b',
      `${part('b', 'form-data; name="title"', 'hello')}\r\n--b--\r\n`,
    );
    expect(field.statusCode).toBe(422);
    expect(field.json().detail).toBe('File is required: send it in a multipart field named "file"');
    const other = await post(
      'multipart/form-data; boundary=b',
      `${part('b', 'form-data; name="doc"; filename="a.txt"', SHORT_TEXT)}\r\n--b--\r\n`,
    );
    expect(other.statusCode).toBe(422);
    const empty = await post('multipart/form-data; boundary=b', '--b--\r\n');
    expect(empty.statusCode).toBe(422);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const res = await post('application/octet-stream', Buffer.from(SHORT_TEXT));
    expect(res.statusCode).toBe(415);
  });
});
