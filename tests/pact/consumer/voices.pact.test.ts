// The voice picker (GET /voices) and the book page's pronunciations (GET/PUT /pronunciations,
// POST /jobs/{jobId}/reconvert) as the SPA calls them.
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { reconvertJob } from '../../../src/api/gen/endpoints/jobs';
import { getPronunciations, putPronunciations } from '../../../src/api/gen/endpoints/pronunciations';
import { listVoices } from '../../../src/api/gen/endpoints/voices';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { reader, states } from '../states';
import { bearer, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, lectioPact, useMockServer } from './pact';

const { boolean, eachLike, integer, regex, string } = MatchersV3;
const pact = lectioPact();
const json = { 'Content-Type': 'application/json' };
const PROVIDERS = /^(openai|elevenlabs|offline|openai_compatible)$/;

describe('the voices', () => {
  it('lists every voice usable now with its sample, and their sources', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: reader.email, password: reader.password })
      .uponReceiving('a request for the voices')
      .withRequest('GET', '/api/v1/voices', (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          voices: eachLike({
            provider: regex(PROVIDERS, 'offline'),
            id: string('en-us+f3'),
            name: string('US English, female'),
            language: string('en-US'),
            sample_url: regex(
              /^\/api\/v1\/voices\/[a-z_]+\/[^/]+\/sample$/,
              '/api/v1/voices/offline/en-us%2Bf3/sample',
            ),
            default: boolean(true),
          }),
          sources: eachLike({
            provider: regex(PROVIDERS, 'offline'),
            name: string('Offline voice'),
            status: regex(/^(ready|unreachable)$/, 'ready'),
          }),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const list = await listVoices();
        expect(list.voices[0]?.sample_url).toMatch(/\/sample$/);
        expect(list.sources[0]?.status).toBe('ready');
      }));
});

describe('pronunciations', () => {
  it('answers the saved list', () =>
    pact
      .addInteraction()
      .given(states.pronunciationsSaved, { entries: [{ text: 'Hermione', say_as: 'her-my-oh-nee' }] })
      .uponReceiving('a request for the pronunciations')
      .withRequest('GET', '/api/v1/pronunciations', (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody(eachLike({ text: string('Hermione'), say_as: string('her-my-oh-nee') })),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        expect(await getPronunciations()).toEqual([{ text: 'Hermione', say_as: 'her-my-oh-nee' }]);
      }));

  it('saves a new list as sent', () =>
    pact
      .addInteraction()
      .given(states.pronunciationsSaved, { entries: [] })
      .uponReceiving('a new list of pronunciations')
      .withRequest('PUT', '/api/v1/pronunciations', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody([
          { text: 'Hermione', say_as: 'her-my-oh-nee' },
          { text: 'GIF', say_as: 'jiff' },
        ]),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody([
          { text: 'Hermione', say_as: 'her-my-oh-nee' },
          { text: 'GIF', say_as: 'jiff' },
        ]),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const saved = await putPronunciations([
          { text: 'Hermione', say_as: 'her-my-oh-nee' },
          { text: 'GIF', say_as: 'jiff' },
        ]);
        expect(saved).toHaveLength(2);
      }));

  it('refuses a word listed twice with 422 and says which', () =>
    pact
      .addInteraction()
      .given(states.pronunciationsSaved, { entries: [] })
      .uponReceiving('a list of pronunciations with a word twice')
      .withRequest('PUT', '/api/v1/pronunciations', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody([
          { text: 'Gandalf', say_as: 'gan-dalf' },
          { text: 'GANDALF', say_as: 'gan-dolf' },
        ]),
      )
      .willRespondWith(422, (res) => res.jsonBody(errorBody('"GANDALF" is listed twice (entries 1 and 2)')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await putPronunciations([
          { text: 'Gandalf', say_as: 'gan-dalf' },
          { text: 'GANDALF', say_as: 'gan-dolf' },
        ]).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect(errorMessage(error, '')).toBe('"GANDALF" is listed twice (entries 1 and 2)');
      }));
});

describe('re-convert changed chapters', () => {
  it('re-converts a book whose text has a word whose pronunciation changed', () =>
    pact
      .addInteraction()
      .given(states.audiobookWithChangedWord, { title: 'The Tell-Tale Heart', word: 'Hermione' })
      .uponReceiving('a re-conversion of a book with a changed word')
      .withRequest('POST', jobPath('/api/v1/jobs/{id}/reconvert'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody({ chapters: eachLike(integer(1)), status: 'PENDING' }))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const result = await reconvertJob(EXAMPLE_JOB_ID);
        expect(result.chapters).toEqual([1]);
        expect(result.status).toBe('PENDING');
      }));

  it('re-converts nothing when no chapter contains a changed word', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a re-conversion of a book without changed words')
      .withRequest('POST', jobPath('/api/v1/jobs/{id}/reconvert'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody({ chapters: [], status: 'COMPLETED' }))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const result = await reconvertJob(EXAMPLE_JOB_ID);
        expect(result.chapters).toEqual([]);
      }));

  it('answers 409 for a book still converting', () =>
    pact
      .addInteraction()
      .given(states.jobProcessing, { title: 'Moby-Dick' })
      .uponReceiving('a re-conversion of a book still converting')
      .withRequest('POST', jobPath('/api/v1/jobs/{id}/reconvert'), (req) => req.headers(bearer()))
      .willRespondWith(409, (res) =>
        res.jsonBody(errorBody('Only a finished audiobook can be re-converted (this one is PROCESSING)')),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await reconvertJob(EXAMPLE_JOB_ID).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(409);
      }));
});
