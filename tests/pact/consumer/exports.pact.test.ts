import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { cancelAudioExport, listAudioExports, startAudioExport } from '../../../src/api/gen/endpoints/exports';
import { createFeed } from '../../../src/api/gen/endpoints/feeds';
import { states } from '../states';
import { bearer, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { isoTimestamp, lectioPact, useMockServer } from './pact';

const { fromProviderState, regex, uuid } = MatchersV3;
const pact = lectioPact();

const entry = (format: string) => ({
  format,
  status: 'none',
  progress: 0,
  filename: `A Christmas Carol.${format}`,
  size_bytes: null,
  download_url: null,
  error_message: null,
  updated_at: null,
});

describe('downloads and podcast feeds', () => {
  it('lists the four downloads of a finished book, none prepared yet', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for the downloads of a finished book')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/exports'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody({ exports: ['m4b', 'mp3', 'zip', 'epub'].map(entry) }))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const list = await listAudioExports(EXAMPLE_JOB_ID);
        expect(list.exports.map((e) => e.format)).toEqual(['m4b', 'mp3', 'zip', 'epub']);
        expect(list.exports.every((e) => e.status === 'none')).toBe(true);
      }));

  it('starts preparing a format, which is queued', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request to prepare the MP3 of a finished book')
      .withRequest('POST', jobPath('/api/v1/audio/{id}/exports'), (req) =>
        req.headers(bearer()).jsonBody({ format: 'mp3' }),
      )
      .willRespondWith(202, (res) => res.jsonBody({ ...entry('mp3'), status: 'queued', updated_at: isoTimestamp() }))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const started = await startAudioExport(EXAMPLE_JOB_ID, { format: 'mp3' });
        expect(started).toMatchObject({ format: 'mp3', status: 'queued', download_url: null });
      }));

  it('stops preparing a format', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request to stop preparing the ZIP of a book')
      .withRequest('DELETE', jobPath('/api/v1/audio/{id}/exports/zip'), (req) => req.headers(bearer()))
      .willRespondWith(204)
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        // 204: nothing to read, and no error.
        await cancelAudioExport(EXAMPLE_JOB_ID, 'zip');
      }));

  it('makes the private podcast feed of a book', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for the podcast feed of a book')
      .withRequest('POST', '/api/v1/feeds', (req) =>
        req.headers(bearer()).jsonBody({ job_id: fromProviderState('${jobId}', EXAMPLE_JOB_ID) }),
      )
      .willRespondWith(201, (res) =>
        res.jsonBody({
          id: uuid('5f0c9a1e-8d2b-4c3a-9e7f-1b2c3d4e5f60'),
          url: regex(
            /^https?:\/\/[^/]+\/feeds\/[A-Za-z0-9_-]{43}\.xml$/,
            'http://localhost/feeds/q8X2mVbK3rT9wLpZs4YdNc7Hf1GjEu6AoRiQk0Wx5Sa.xml',
          ),
          job_id: fromProviderState('${jobId}', EXAMPLE_JOB_ID),
          title: 'A Christmas Carol',
          created_at: isoTimestamp(),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const feed = await createFeed({ job_id: EXAMPLE_JOB_ID });
        expect(feed.url).toMatch(/\/feeds\/[A-Za-z0-9_-]{43}\.xml$/);
        expect(feed.title).toBe('A Christmas Carol');
      }));
});
