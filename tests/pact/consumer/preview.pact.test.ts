// The upload screen's preview (chapters, listening time, cost), a job made of chosen chapters, and
// the library page's book cover.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { getAudioCover } from '../../../src/api/gen/endpoints/audio';
import { createJob, previewJob } from '../../../src/api/gen/endpoints/jobs';
import { ApiError } from '../../../src/api/errors';
import { states } from '../states';
import { bearer, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, isoTimestamp, lectioPact, useMockServer } from './pact';

const { boolean, eachLike, fromProviderState, integer, like, number, regex, string, uuid } = MatchersV3;
const pact = lectioPact();
const json = { 'Content-Type': 'application/json' };
const USER_ID = '5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6';
const STEP_ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const EXAMPLE_BOOK_KEY = 'uploads/9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b.txt';

describe('preview a job', () => {
  it("lists an uploaded EPUB's chapters with its title, author and estimates", () =>
    pact
      .addInteraction()
      .given(states.uploadedBook, { title: 'The Lighthouse', author: 'Ada Marlow' })
      .uponReceiving('a preview of an uploaded EPUB')
      .withRequest('POST', '/api/v1/jobs/preview', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({
          title: 'lighthouse',
          file_key: fromProviderState('${fileKey}', EXAMPLE_BOOK_KEY),
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          job_type: 'book_processing',
          title: 'The Lighthouse',
          author: 'Ada Marlow',
          has_cover: true,
          chapters: eachLike({
            index: integer(0),
            title: string('The Keeper'),
            characters: integer(240),
            words: integer(42),
            estimated_seconds: number(13.4),
            front_matter: boolean(false),
          }),
          total_characters: integer(720),
          estimated_seconds: number(40.2),
          characters_per_second: number(17.9),
          estimated_cost: eachLike({
            provider: regex(/^(offline|openai|elevenlabs)$/, 'offline'),
            model: string('espeak-ng'),
            usd: number(0),
          }),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const preview = await previewJob({
          title: 'lighthouse',
          file_key: EXAMPLE_BOOK_KEY,
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        });
        expect(preview.title).toBe('The Lighthouse');
        expect(preview.author).toBe('Ada Marlow');
        expect(preview.chapters.length).toBeGreaterThan(0);
        expect(preview.estimated_cost[0]?.provider).toBe('offline');
      }));

  it('creates a job of the chosen chapters with a renamed one', () =>
    pact
      .addInteraction()
      .given(states.uploadedBook, { title: 'The Lighthouse', author: 'Ada Marlow' })
      .uponReceiving('a job creation from chosen chapters of an uploaded EPUB')
      .withRequest('POST', '/api/v1/jobs', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({
          title: 'The Lighthouse',
          file_key: fromProviderState('${fileKey}', EXAMPLE_BOOK_KEY),
          voice_config: { provider: 'openai', voice_id: 'alloy' },
          chapters: [1, 2],
          chapter_titles: [{ index: 2, title: 'Dawn After the Storm' }],
        }),
      )
      .willRespondWith(201, (res) =>
        res.jsonBody({
          id: uuid(EXAMPLE_JOB_ID),
          user_id: uuid(USER_ID),
          parent_job_id: null,
          job_type: 'book_processing',
          title: 'The Lighthouse',
          description: null,
          status: regex(/^(PENDING|PROCESSING)$/, 'PENDING'),
          progress: number(0),
          error_message: null,
          config: { voice_config: { provider: 'openai' }, author: 'Ada Marlow' },
          result_data: like({}),
          input_file_key: string(`jobs/${EXAMPLE_JOB_ID}/source.txt`),
          output_file_key: null,
          created_at: isoTimestamp(),
          updated_at: isoTimestamp(),
          started_at: null,
          completed_at: null,
          duration: null,
          steps: eachLike({
            id: uuid(STEP_ID),
            step_name: string('acquire_content'),
            step_order: integer(1),
            status: regex(/^(PENDING|RUNNING)$/, 'PENDING'),
            progress: number(0),
            error_message: null,
            step_metadata: like({}),
            created_at: isoTimestamp(),
            updated_at: isoTimestamp(),
            started_at: null,
            completed_at: null,
            duration: null,
          }),
          children: [],
          parent: null,
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const job = await createJob({
          title: 'The Lighthouse',
          file_key: EXAMPLE_BOOK_KEY,
          voice_config: { provider: 'openai', voice_id: 'alloy' },
          chapters: [1, 2],
          chapter_titles: [{ index: 2, title: 'Dawn After the Storm' }],
        });
        expect(job.id).toBe(EXAMPLE_JOB_ID);
        expect(job.job_type).toBe('book_processing');
        expect(job.config.author).toBe('Ada Marlow');
      }));
});

describe('book cover', () => {
  const cover = resolve('tests/pact/consumer/fixtures/cover.png');

  it("answers the EPUB's own cover image to the book's owner", () =>
    pact
      .addInteraction()
      .given(states.bookWithCover, { title: 'The Lighthouse' })
      .uponReceiving("a request for a book's cover")
      .withRequest('GET', jobPath('/api/v1/audio/{id}/cover'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.headers({ 'Cache-Control': 'private, max-age=86400' }).binaryFile('image/png', cover),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const image = await getAudioCover(EXAMPLE_JOB_ID);
        expect(image.type).toBe('image/png');
        expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array(readFileSync(cover)));
      }));

  // A book without a cover of its own gets a typographic SVG with its title.
  const SVG_EXAMPLE =
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900" role="img" aria-label="Cover of The Tell-Tale Heart">\n<title>Cover of The Tell-Tale Heart</title>\n<rect width="600" height="900" fill="hsl(210, 40%, 25%)"/>\n</svg>';
  const SVG_PATTERN =
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>\n<title>Cover of The Tell-Tale Heart<\/title>\n[\s\S]*<\/svg>$/;

  it('answers a generated SVG cover with the title for a book without one of its own', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a request for the cover of a book that has none of its own')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/cover'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res
          .headers({
            'Content-Type': regex(/^image\/svg\+xml(;.*)?$/, 'image/svg+xml; charset=utf-8'),
            'Cache-Control': 'private, max-age=86400',
            ETag: regex(/^"[\w-]+"$/, '"q1w2e3r4t5y6u7i8o9p0a1s2d3f"'),
          })
          // The header says image/svg+xml; the body rule names what Pact's content sniffing calls
          // an SVG that starts with an XML declaration (text/xml), and the regex checks the rest.
          .body('text/xml', Buffer.from(SVG_EXAMPLE))
          .matchingRules({ body: { path: '$', rules: [regex(SVG_PATTERN, SVG_EXAMPLE)] } }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const image = await getAudioCover(EXAMPLE_JOB_ID);
        expect(image.type).toMatch(/^image\/svg\+xml/);
        expect(await image.text()).toContain('<title>Cover of The Tell-Tale Heart</title>');
      }));

  it('answers 404 for a book that is not the user’s', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: 'someone.else@example.com', password: 'correct-horse-battery' })
      .uponReceiving('a request for the cover of a job the user does not own')
      .withRequest('GET', `/api/v1/audio/${EXAMPLE_JOB_ID}/cover`, (req) => req.headers(bearer()))
      .willRespondWith(404, (res) => res.jsonBody(errorBody('Job not found')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await getAudioCover(EXAMPLE_JOB_ID).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(404);
      }));
});
