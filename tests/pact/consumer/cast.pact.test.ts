import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { getAudioCast, putAudioCast } from '../../../src/api/gen/endpoints/audio';
import { previewJob } from '../../../src/api/gen/endpoints/jobs';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { states } from '../states';
import { bearer, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, lectioPact, useMockServer } from './pact';

const { eachLike, integer, regex, string } = MatchersV3;
const pact = lectioPact();

const CHARACTERS = [
  { id: 'mary', name: 'Mary', gender: 'female', voice_id: 'en-gb+f4' },
  { id: 'john', name: 'John', gender: 'male', voice_id: 'en-us+m3' },
];
const CAST_STATE = { title: 'The Farm', characters: CHARACTERS };
const castBody = (characters: readonly { voice_id: string }[]) => ({
  narrator: { voice_id: 'en-us+f3' },
  characters: CHARACTERS.map((c, i) => ({ ...c, aliases: [], voice_id: characters[i]!.voice_id, lines: 1 })),
});

describe('a book’s full cast', () => {
  it('answers the narrator and the characters with their voices', () =>
    pact
      .addInteraction()
      .given(states.castBook, CAST_STATE)
      .uponReceiving('a request for the cast of a book converted with a full cast')
      .withRequest('GET', jobPath('/api/v1/audio/{id}/cast'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody(castBody(CHARACTERS)))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const cast = await getAudioCast(EXAMPLE_JOB_ID);
        expect(cast.narrator.voice_id).toBe('en-us+f3');
        expect(cast.characters.map((c) => [c.name, c.voice_id])).toEqual([
          ['Mary', 'en-gb+f4'],
          ['John', 'en-us+m3'],
        ]);
      }));

  it('gives a character another voice, and converts the chapters that read them again', () =>
    pact
      .addInteraction()
      .given(states.castBook, CAST_STATE)
      .uponReceiving('a new voice for a character of a finished cast book')
      .withRequest('PUT', jobPath('/api/v1/audio/{id}/cast'), (req) =>
        req.headers(bearer()).jsonBody({ voices: { john: 'en-gb+m3' } }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          ...castBody([CHARACTERS[0]!, { voice_id: 'en-gb+m3' }]),
          chapters_reconverting: eachLike(integer(1)),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const result = await putAudioCast(EXAMPLE_JOB_ID, { voices: { john: 'en-gb+m3' } });
        expect(result.characters.find((c) => c.id === 'john')?.voice_id).toBe('en-gb+m3');
        expect(result.chapters_reconverting).toEqual([1]);
      }));

  it('refuses a voice the book’s provider does not have, with the reason to show', () =>
    pact
      .addInteraction()
      .given(states.castBook, CAST_STATE)
      .uponReceiving('a voice the provider does not have for a character of a cast book')
      .withRequest('PUT', jobPath('/api/v1/audio/{id}/cast'), (req) =>
        req.headers(bearer()).jsonBody({ voices: { mary: 'en-zz+x9' } }),
      )
      .willRespondWith(422, (res) => res.jsonBody(errorBody('There is no voice "en-zz+x9" of offline to read with')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await putAudioCast(EXAMPLE_JOB_ID, { voices: { mary: 'en-zz+x9' } }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(422);
        expect(errorMessage(error, '')).toBe('There is no voice "en-zz+x9" of offline to read with');
      }));

  it('gives a quote another speaker, as the read-along sends it', () =>
    pact
      .addInteraction()
      .given(states.castBook, CAST_STATE)
      .uponReceiving('another speaker for a quote of a cast book')
      .withRequest('PUT', jobPath('/api/v1/audio/{id}/cast'), (req) =>
        req.headers(bearer()).jsonBody({ overrides: [{ chapter: 1, char_start: 9, speaker: 'mary' }] }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          narrator: { voice_id: 'en-us+f3' },
          characters: CHARACTERS.map((c, i) => ({ ...c, aliases: [], lines: integer(i === 0 ? 2 : 0) })),
          chapters_reconverting: eachLike(integer(1)),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const result = await putAudioCast(EXAMPLE_JOB_ID, {
          overrides: [{ chapter: 1, char_start: 9, speaker: 'mary' }],
        });
        expect(result.characters.map((c) => [c.id, c.lines])).toEqual([
          ['mary', 2],
          ['john', 0],
        ]);
        expect(result.chapters_reconverting).toEqual([1]);
      }));
});

describe('a full cast chosen before converting', () => {
  // At least 100 characters, as every text must be.
  const content =
    'Mary Stone opened the door. "Who is there?" Mary asked.\n\n"It is only me," said John Black. She let him in out of the rain.';

  it('previews who would speak, with the voice the reader chose for a character', () =>
    pact
      .addInteraction()
      .given(states.signedIn)
      .uponReceiving('a preview of a text with a full cast and a chosen voice')
      .withRequest('POST', '/api/v1/jobs/preview', (req) =>
        req.headers({ 'Content-Type': 'application/json', ...bearer() }).jsonBody({
          title: 'Untitled',
          content,
          voice_config: {
            provider: 'offline',
            voice_id: 'en-us+f3',
            cast: true,
            cast_voices: { 'mary-stone': 'en-gb+f4' },
          },
        }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          job_type: 'text_to_audio',
          title: 'Untitled',
          author: null,
          has_cover: false,
          chapters: eachLike({
            index: integer(0),
            title: string('Untitled'),
            characters: integer(120),
            words: integer(16),
            estimated_seconds: MatchersV3.number(5),
            front_matter: MatchersV3.boolean(false),
          }),
          total_characters: integer(120),
          estimated_seconds: MatchersV3.number(5),
          characters_per_second: MatchersV3.number(17.9),
          estimated_cost: eachLike({
            provider: regex(/^(offline|openai|elevenlabs)$/, 'offline'),
            model: string('espeak-ng'),
            usd: MatchersV3.number(0),
          }),
          cast: {
            narrator: { voice_id: 'en-us+f3' },
            // Who speaks is the attribution's finding; the shape is the contract's.
            characters: eachLike({
              id: string('mary-stone'),
              name: string('Mary Stone'),
              aliases: MatchersV3.atLeastLike(string('Mary'), 0),
              gender: regex(/^(female|male|unknown)$/, 'female'),
              voice_id: string('en-gb+f4'),
              lines: integer(1),
            }),
          },
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const preview = await previewJob({
          title: 'Untitled',
          content,
          voice_config: {
            provider: 'offline',
            voice_id: 'en-us+f3',
            cast: true,
            cast_voices: { 'mary-stone': 'en-gb+f4' },
          },
        });
        expect(preview.cast?.narrator.voice_id).toBe('en-us+f3');
        expect(preview.cast?.characters.find((c) => c.id === 'mary-stone')?.voice_id).toBe('en-gb+f4');
      }));
});
