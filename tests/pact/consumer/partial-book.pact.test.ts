// Listening while a book converts: the library lists it with its ready chapters, the player reads
// which chapters can be played and starts with the first ready one.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { getAudioMetadata, getAudioStream } from '../../../src/api/gen/endpoints/audio';
import { listJobs } from '../../../src/api/gen/endpoints/jobs';
import { states } from '../states';
import { bearer, convertingBookSummary, EXAMPLE_CHAPTER_ID, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { isoTimestamp, lectioPact, useMockServer } from './pact';

const { boolean, eachLike, fromProviderState, integer, like, number, regex, string, uuid } = MatchersV3;
const pact = lectioPact();
const CONVERTING = { title: 'The Long Voyage', chapters: 3, ready: [1] };

/**
 * The library's page (GET /jobs?status=listenable&top_level=true) holding the converting book, with
 * `chaptersReady` of its 3 chapters converted; it is listed, and says it can be played, either way.
 */
function libraryPage(chaptersReady: number) {
  return {
    jobs: eachLike(
      convertingBookSummary({
        chapter_count: integer(3),
        chapters_ready: integer(chaptersReady),
        listenable: boolean(true),
      }),
    ),
    total: integer(1),
    page: 1,
    page_size: 100,
    total_pages: integer(1),
  };
}

/**
 * The metadata of the converting book of 3 chapters (2 s of audio playable): its first chapter
 * converted (`ready`), or only that chapter's opening playable (`opening`), every chapter then
 * saying how many of its seconds play.
 */
function convertingMetadata(first: 'ready' | 'opening') {
  const opening = first === 'opening';
  const chapter = (order: number) => ({
    id: uuid(EXAMPLE_CHAPTER_ID),
    title: `Chapter ${order}`,
    order,
    start: order === 1 ? 0 : number(2.0),
    duration: order === 1 ? number(2.0) : 0,
    ready: order === 1 && !opening,
    ...(opening && { playable_seconds: order === 1 ? number(2.0) : 0 }),
  });
  return {
    job_id: uuid(EXAMPLE_JOB_ID),
    title: 'The Long Voyage',
    status: 'PROCESSING',
    format: string('mp3'),
    duration: number(2.0),
    file_size: integer(12288),
    created_at: isoTimestamp(),
    completed_at: null,
    chapters: [1, 2, 3].map(chapter),
    chapters_ready: opening ? 0 : 1,
    resume_position: 0,
    percentage_complete: 0,
    last_played_at: null,
    current_chapter_id: null,
    current_chapter_position: 0,
  };
}

describe('a book still converting', () => {
  it('is in the library (status listenable) with how many of its chapters are ready', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, CONVERTING)
      .uponReceiving('a request for the listenable top-level jobs, as the library asks')
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req.headers(bearer()).query({ status: 'listenable', top_level: 'true', page_size: '100' }),
      )
      .willRespondWith(200, (res) => res.jsonBody(libraryPage(1)))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({ status: 'listenable', top_level: true, page_size: 100 });
        // The library shows what the server says can be played (src/entities/job.ts isListenable).
        expect(page.jobs[0]).toMatchObject({
          status: 'PROCESSING',
          chapter_count: 3,
          chapters_ready: 1,
          listenable: true,
        });
      }));

  it('has metadata marking which chapters can be played', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, CONVERTING)
      .uponReceiving('a request for the metadata of a book still converting')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/metadata'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody(convertingMetadata('ready')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const meta = await getAudioMetadata(EXAMPLE_JOB_ID);
        expect(meta.status).toBe('PROCESSING');
        expect(meta.chapters.map((c) => c.ready)).toEqual([true, false, false]);
        expect(meta.chapters_ready).toBe(1);
      }));

  it('streams its first ready chapter', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, CONVERTING)
      .uponReceiving('a request for the stream of a book still converting')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/stream'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          streaming_url: regex(
            /^https?:\/\/[^/]+\/api\/v1\/media\/[A-Za-z0-9._/-]+\?expires=\d+&sig=[A-Za-z0-9_-]+$/,
            `https://listen.example.org/api/v1/media/audio/${EXAMPLE_CHAPTER_ID}.mp3?expires=1795881600&sig=abc`,
          ),
          expires_at: isoTimestamp(),
          file_key: string(`audio/${EXAMPLE_CHAPTER_ID}.mp3`),
          content_type: 'audio/mpeg',
          resume_info: like({
            has_progress: boolean(false),
            resume_position: number(0),
            percentage_complete: number(0),
            last_played_at: null,
            current_chapter_id: null,
            current_chapter_position: number(0),
          }),
          source_job_id: fromProviderState('${chapterId}', EXAMPLE_CHAPTER_ID),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const stream = await getAudioStream(EXAMPLE_JOB_ID);
        expect(stream.source_job_id).toBe(EXAMPLE_CHAPTER_ID);
      }));
});

describe('a book before any chapter is ready', () => {
  const OPENING = { title: 'The Long Voyage', chapters: 3, seconds: 2 };

  it("is in the library (status listenable) as soon as its first chapter's opening plays", () =>
    pact
      .addInteraction()
      .given(states.bookOpening, OPENING)
      .uponReceiving("a request for the listenable top-level jobs, a book's first chapter's opening ready")
      .withRequest('GET', '/api/v1/jobs', (req) =>
        req.headers(bearer()).query({ status: 'listenable', top_level: 'true', page_size: '100' }),
      )
      .willRespondWith(200, (res) => res.jsonBody(libraryPage(0)))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const page = await listJobs({ status: 'listenable', top_level: true, page_size: 100 });
        expect(page.jobs[0]).toMatchObject({ status: 'PROCESSING', chapters_ready: 0, listenable: true });
      }));

  it("has metadata saying how much of its first chapter can be played: the chapter's opening", () =>
    pact
      .addInteraction()
      .given(states.bookOpening, OPENING)
      .uponReceiving("a request for the metadata of a book whose first chapter's opening is ready")
      .withRequest('GET', jobPath('/api/v1/audio/{id}/metadata'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody(convertingMetadata('opening')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const meta = await getAudioMetadata(EXAMPLE_JOB_ID);
        expect(meta.chapters_ready).toBe(0);
        expect(meta.chapters.map((c) => c.ready)).toEqual([false, false, false]);
        expect(meta.chapters[0]!.playable_seconds).toBeGreaterThan(0);
        expect(meta.chapters[0]!.duration).toBe(meta.chapters[0]!.playable_seconds);
      }));

  it("streams the first chapter's opening", () =>
    pact
      .addInteraction()
      .given(states.bookOpening, OPENING)
      .uponReceiving("a request for the stream of a book whose first chapter's opening is ready")
      .withRequest('GET', jobPath('/api/v1/audio/{id}/stream'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          streaming_url: regex(
            /^https?:\/\/[^/]+\/api\/v1\/media\/[A-Za-z0-9._/-]+\?expires=\d+&sig=[A-Za-z0-9_-]+$/,
            `https://listen.example.org/api/v1/media/jobs/${EXAMPLE_CHAPTER_ID}/opening.mp3?expires=1795881600&sig=abc`,
          ),
          expires_at: isoTimestamp(),
          file_key: string(`jobs/${EXAMPLE_CHAPTER_ID}/opening.mp3`),
          content_type: 'audio/mpeg',
          resume_info: like({
            has_progress: boolean(false),
            resume_position: number(0),
            percentage_complete: number(0),
            last_played_at: null,
            current_chapter_id: null,
            current_chapter_position: number(0),
          }),
          source_job_id: fromProviderState('${chapterId}', EXAMPLE_CHAPTER_ID),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const stream = await getAudioStream(EXAMPLE_JOB_ID);
        expect(stream.source_job_id).toBe(EXAMPLE_CHAPTER_ID);
      }));
});
