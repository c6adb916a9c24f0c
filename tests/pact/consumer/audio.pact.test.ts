import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { getAudioMetadata, getAudioPlaylist, getAudioStream } from '../../../src/api/gen/endpoints/audio';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { states } from '../states';
import { bearer, EXAMPLE_CHAPTER_ID, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, isoTimestamp, lectioPact, useMockServer } from './pact';

const { eachLike, integer, number, regex, string, uuid } = MatchersV3;
const pact = lectioPact();

// Absolute, so an <audio> element on another origin loads it from the API.
const signedMediaUrl = regex(
  /^https?:\/\/[^/]+\/api\/v1\/media\/[A-Za-z0-9._/-]+\?expires=\d+&sig=[A-Za-z0-9_-]+$/,
  `https://listen.example.org/api/v1/media/audio/${EXAMPLE_JOB_ID}.mp3?expires=1795881600&sig=q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c`,
);

describe('audio stream', () => {
  it('answers a signed streaming URL and no resume point for a book never played', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a request for the stream of a completed audiobook')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/stream'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          streaming_url: signedMediaUrl,
          expires_at: isoTimestamp(),
          file_key: string(`audio/${EXAMPLE_JOB_ID}.mp3`),
          content_type: 'audio/mpeg',
          resume_info: {
            has_progress: false,
            resume_position: 0,
            percentage_complete: 0,
            last_played_at: null,
            current_chapter_id: null,
            current_chapter_position: 0,
          },
          source_job_id: null,
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const stream = await getAudioStream(EXAMPLE_JOB_ID);
        expect(new URL(stream.streaming_url).pathname).toMatch(/^\/api\/v1\/media\//);
        expect(stream.resume_info.has_progress).toBe(false);
        expect(stream.resume_info.resume_position).toBe(0);
      }));

  it('carries the saved position in resume_info', () =>
    pact
      .addInteraction()
      .given(states.progressSaved, { title: 'The Tell-Tale Heart', position_seconds: 1.5, current_chapter_id: null })
      .uponReceiving('a request for the stream of an audiobook with saved progress')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/stream'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          streaming_url: signedMediaUrl,
          expires_at: isoTimestamp(),
          file_key: string(`audio/${EXAMPLE_JOB_ID}.mp3`),
          content_type: 'audio/mpeg',
          resume_info: {
            has_progress: true,
            resume_position: number(1.5),
            percentage_complete: number(50),
            last_played_at: isoTimestamp(),
            current_chapter_id: null,
            current_chapter_position: number(0),
          },
          source_job_id: null,
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const stream = await getAudioStream(EXAMPLE_JOB_ID);
        expect(stream.resume_info.has_progress).toBe(true);
        expect(stream.resume_info.resume_position).toBe(1.5);
      }));

  it('refuses a job that is still processing, with the reason to show', () =>
    pact
      .addInteraction()
      .given(states.jobProcessing, { title: 'Moby-Dick' })
      .uponReceiving('a request for the stream of a job that is still processing')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/stream'), (req) => req.headers(bearer()))
      .willRespondWith(409, (res) => res.jsonBody(errorBody('The audiobook is not ready yet (status PROCESSING)')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await getAudioStream(EXAMPLE_JOB_ID).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(409);
        expect(errorMessage(error, 'Failed to load audio')).toBe('The audiobook is not ready yet (status PROCESSING)');
      }));
});

describe('audio metadata', () => {
  it('answers the duration, size and the single chapter of a text', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a request for the metadata of a completed audiobook')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/metadata'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          job_id: uuid(EXAMPLE_JOB_ID),
          title: 'The Tell-Tale Heart',
          status: 'COMPLETED',
          format: 'mp3',
          duration: number(3.0),
          file_size: integer(18432),
          created_at: isoTimestamp(),
          completed_at: isoTimestamp(),
          chapters: eachLike({
            id: string(EXAMPLE_JOB_ID),
            title: string('The Tell-Tale Heart'),
            order: integer(1),
            start: number(0),
            duration: number(3.0),
          }),
          resume_position: 0,
          percentage_complete: 0,
          last_played_at: null,
          current_chapter_id: null,
          current_chapter_position: 0,
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const meta = await getAudioMetadata(EXAMPLE_JOB_ID);
        expect(meta.duration).toBeGreaterThan(0);
        expect(meta.chapters).toHaveLength(1);
        expect(meta.resume_position).toBe(0);
      }));

  it('lists a book’s chapters with their start in the combined audio', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for the metadata of a book with chapters')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/metadata'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          job_id: uuid(EXAMPLE_JOB_ID),
          title: 'A Christmas Carol',
          status: 'COMPLETED',
          format: string('mp3'),
          duration: number(6.0),
          file_size: integer(36864),
          created_at: isoTimestamp(),
          completed_at: isoTimestamp(),
          chapters: [
            { id: uuid(EXAMPLE_CHAPTER_ID), title: string('Stave 1'), order: 1, start: 0, duration: number(2.0) },
            {
              id: uuid(EXAMPLE_CHAPTER_ID),
              title: string('Stave 2'),
              order: 2,
              start: number(2.0),
              duration: number(2.0),
            },
            {
              id: uuid(EXAMPLE_CHAPTER_ID),
              title: string('Stave 3'),
              order: 3,
              start: number(4.0),
              duration: number(2.0),
            },
          ],
          resume_position: 0,
          percentage_complete: 0,
          last_played_at: null,
          current_chapter_id: null,
          current_chapter_position: 0,
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const meta = await getAudioMetadata(EXAMPLE_JOB_ID);
        expect(meta.chapters.map((c) => c.order)).toEqual([1, 2, 3]);
        expect(meta.chapters[1]?.start).toBe(meta.chapters[0]?.duration);
      }));

  it('answers 404 for a job that is not the user’s', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: 'someone.else@example.com', password: 'correct-horse-battery' })
      .uponReceiving('a request for the metadata of a job the user does not own')
      .withRequest('GET', `/api/v1/audio/${EXAMPLE_JOB_ID}/metadata`, (req) => req.headers(bearer()))
      .willRespondWith(404, (res) => res.jsonBody(errorBody('Job not found')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await getAudioMetadata(EXAMPLE_JOB_ID).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(404);
      }));
});

// Absolute URLs: a downloaded playlist opens in any player, and another origin's page plays it.
const PLAYLIST_PATTERN =
  /^#EXTM3U\n(#EXTINF:-?\d+,[^\n]*\nhttps?:\/\/[^/\n]+\/api\/v1\/media\/[A-Za-z0-9._/-]+\?expires=\d+&sig=[A-Za-z0-9_-]+\n){3}$/;
const PLAYLIST_EXAMPLE = [
  '#EXTM3U',
  '#EXTINF:2,Stave 1',
  `https://listen.example.org/api/v1/media/audio/${EXAMPLE_CHAPTER_ID}.mp3?expires=1795881600&sig=abc`,
  '#EXTINF:2,Stave 2',
  `https://listen.example.org/api/v1/media/audio/${EXAMPLE_CHAPTER_ID}.mp3?expires=1795881600&sig=def`,
  '#EXTINF:2,Stave 3',
  `https://listen.example.org/api/v1/media/audio/${EXAMPLE_CHAPTER_ID}.mp3?expires=1795881600&sig=ghi`,
  '',
].join('\n');

describe('audio playlist', () => {
  it('answers an M3U playlist of the chapters with signed URLs', () =>
    pact
      .addInteraction()
      .given(states.bookWithChapters, { title: 'A Christmas Carol' })
      .uponReceiving('a request for the playlist of a book with chapters')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/playlist'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res
          .headers({ 'Content-Type': regex(/^audio\/x-mpegurl(;.*)?$/, 'audio/x-mpegurl; charset=utf-8') })
          .body('audio/x-mpegurl', Buffer.from(PLAYLIST_EXAMPLE))
          .matchingRules({ body: { path: '$', rules: [regex(PLAYLIST_PATTERN, PLAYLIST_EXAMPLE)] } }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const playlist = (await getAudioPlaylist(EXAMPLE_JOB_ID)) as unknown as string;
        expect(typeof playlist).toBe('string');
        const lines = playlist.trimEnd().split('\n');
        expect(lines[0]).toBe('#EXTM3U');
        expect(lines.filter((l) => l.startsWith('#EXTINF'))).toHaveLength(3);
        expect(lines.filter((l) => /^https?:\/\/[^/]+\/api\/v1\/media\//.test(l))).toHaveLength(3);
      }));
});
