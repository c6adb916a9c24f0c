import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { getAudioTranscript } from '../../../src/api/gen/endpoints/audio';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { states } from '../states';
import { bearer, EXAMPLE_CHAPTER_ID, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, lectioPact, useMockServer } from './pact';

const { integer, number, uuid } = MatchersV3;
const pact = lectioPact();

const PARAGRAPHS = [
  ['True! nervous, very dreadfully nervous I had been and am.', 'But why will you say that I am mad?'],
  ['Hearken! and observe how healthily I tell you the whole story.'],
];

describe('audio transcript', () => {
  it('answers a text’s sentences with when each is spoken, for reading along', () =>
    pact
      .addInteraction()
      .given(states.audiobookWithTranscript, { title: 'The Tell-Tale Heart', paragraphs: PARAGRAPHS })
      .uponReceiving('a request for the transcript of a completed audiobook')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/transcript'), (req) =>
        req.headers(bearer()).query({ chapter: '1' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          job_id: uuid(EXAMPLE_JOB_ID),
          chapter: {
            id: uuid(EXAMPLE_JOB_ID),
            order: 1,
            title: 'The Tell-Tale Heart',
            start: 0,
            duration: number(3.0),
          },
          chapter_count: 1,
          sentences: [
            {
              index: 0,
              start: 0,
              end: number(1.2),
              text: PARAGRAPHS[0]![0]!,
              char_start: 0,
              char_end: integer(57),
              paragraph_start: true,
            },
            {
              index: 1,
              start: number(1.2),
              end: number(1.9),
              text: PARAGRAPHS[0]![1]!,
              char_start: integer(58),
              char_end: integer(93),
              paragraph_start: false,
            },
            {
              index: 2,
              start: number(1.9),
              end: number(3.0),
              text: PARAGRAPHS[1]![0]!,
              char_start: integer(95),
              char_end: integer(157),
              paragraph_start: true,
            },
          ],
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const transcript = await getAudioTranscript(EXAMPLE_JOB_ID, { chapter: 1 });
        expect(transcript.chapter_count).toBe(1);
        expect(transcript.sentences.map((s) => s.text)).toEqual(PARAGRAPHS.flat());
        expect(transcript.sentences.filter((s) => s.paragraph_start)).toHaveLength(2);
      }));

  it('refuses a chapter of a converting book that is not converted yet, with the reason to show', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, { title: 'The Long Voyage', chapters: 3, ready: [1] })
      .uponReceiving('a request for the transcript of a chapter still converting')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/transcript'), (req) =>
        req.headers(bearer()).query({ chapter: '2' }),
      )
      .willRespondWith(409, (res) => res.jsonBody(errorBody('Chapter 2 is not ready yet (status PENDING)')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await getAudioTranscript(EXAMPLE_JOB_ID, { chapter: 2 }).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(409);
        expect(errorMessage(error, 'Failed to load the text')).toBe('Chapter 2 is not ready yet (status PENDING)');
      }));

  it('answers a converted chapter of a book that is still converting', () =>
    pact
      .addInteraction()
      .given(states.bookConverting, { title: 'The Long Voyage', chapters: 3, ready: [1] })
      .uponReceiving('a request for the transcript of the converted first chapter of a converting book')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/transcript'), (req) =>
        req.headers(bearer()).query({ chapter: '1' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          job_id: uuid(EXAMPLE_JOB_ID),
          chapter: { id: uuid(EXAMPLE_CHAPTER_ID), order: 1, title: 'Chapter 1', start: 0, duration: number(2.0) },
          chapter_count: 3,
          sentences: MatchersV3.eachLike({
            index: integer(0),
            start: number(0),
            end: number(0.5),
            text: MatchersV3.string('Chapter 1 begins at the harbour.'),
            char_start: integer(0),
            char_end: integer(32),
            paragraph_start: MatchersV3.boolean(true),
          }),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const transcript = await getAudioTranscript(EXAMPLE_JOB_ID, { chapter: 1 });
        expect(transcript.chapter_count).toBe(3);
        expect(transcript.sentences.length).toBeGreaterThan(0);
      }));

  it('answers 404 for an audiobook that is not the user’s', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: 'someone.else@example.com', password: 'correct-horse-battery' })
      .uponReceiving('a request for the transcript of a job the user does not own')
      .withRequest('GET', `/api/v1/audio/${EXAMPLE_JOB_ID}/transcript`, (req) => req.headers(bearer()))
      .willRespondWith(404, (res) => res.jsonBody(errorBody('Job not found')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await getAudioTranscript(EXAMPLE_JOB_ID).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(404);
      }));
});
