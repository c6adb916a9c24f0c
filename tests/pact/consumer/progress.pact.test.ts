import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { deleteProgress, getProgress, getRecentProgress, saveProgress } from '../../../src/api/gen/endpoints/progress';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { states } from '../states';
import { bearer, EXAMPLE_JOB_ID, EXAMPLE_TOKEN, jobPath } from './listening';
import { errorBody, isoTimestamp, lectioPact, useMockServer } from './pact';

const { boolean, eachLike, number, string, uuid } = MatchersV3;
const pact = lectioPact();
const json = { 'Content-Type': 'application/json' };

/** A saved progress record as the SPA reads it. */
const progressRecord = (overrides: Record<string, unknown> = {}) => ({
  id: uuid('6c5b4a39-2817-4f6e-8d5c-4b3a29180f7e'),
  user_id: uuid('5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6'),
  job_id: uuid(EXAMPLE_JOB_ID),
  job_title: string('The Tell-Tale Heart'),
  position_seconds: number(1.5),
  duration_seconds: number(3),
  percentage_complete: number(50),
  current_chapter_id: null,
  current_chapter_position: number(0),
  is_completed: boolean(false),
  last_played_at: isoTimestamp(),
  created_at: isoTimestamp(),
  updated_at: isoTimestamp(),
  ...overrides,
});

describe('get progress', () => {
  it('answers null for a book never played', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a request for the progress of a book never played')
      .withRequest('GET', jobPath('/api/v1/progress/{id}'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.headers(json).body('application/json', Buffer.from('null')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        expect(await getProgress(EXAMPLE_JOB_ID)).toBeNull();
      }));

  it('answers the saved position', () =>
    pact
      .addInteraction()
      .given(states.progressSaved, { title: 'The Tell-Tale Heart', position_seconds: 1.5, current_chapter_id: null })
      .uponReceiving('a request for saved progress')
      .withRequest('GET', jobPath('/api/v1/progress/{id}'), (req) => req.headers(bearer()))
      .willRespondWith(200, (res) => res.jsonBody(progressRecord()))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const progress = await getProgress(EXAMPLE_JOB_ID);
        expect(progress?.position_seconds).toBe(1.5);
        expect(progress?.current_chapter_id).toBeNull();
      }));
});

describe('save progress', () => {
  it('saves the position and chapter the player sends', () =>
    pact
      .addInteraction()
      .given(states.completedAudiobook, { title: 'The Tell-Tale Heart' })
      .uponReceiving('a progress save while playing')
      .withRequest('PUT', jobPath('/api/v1/progress/{id}'), (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({ position_seconds: 1.5, current_chapter_id: null }),
      )
      .willRespondWith(200, (res) => res.jsonBody(progressRecord({ position_seconds: 1.5 })))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const saved = await saveProgress(EXAMPLE_JOB_ID, { position_seconds: 1.5, current_chapter_id: null });
        expect(saved.position_seconds).toBe(1.5);
        expect(typeof saved.percentage_complete).toBe('number');
      }));

  it('refuses a job that is not completed, with the reason', () =>
    pact
      .addInteraction()
      .given(states.jobProcessing, { title: 'Moby-Dick' })
      .uponReceiving('a progress save for a job that is still processing')
      .withRequest('PUT', jobPath('/api/v1/progress/{id}'), (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({ position_seconds: 10, current_chapter_id: null }),
      )
      .willRespondWith(409, (res) => res.jsonBody(errorBody('Progress can only be saved for a completed audiobook')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await saveProgress(EXAMPLE_JOB_ID, { position_seconds: 10, current_chapter_id: null }).catch(
          (e: unknown) => e,
        );
        expect((error as ApiError).status).toBe(409);
        expect(errorMessage(error, 'Failed to update progress')).toBe(
          'Progress can only be saved for a completed audiobook',
        );
      }));
});

describe('reset progress', () => {
  it('deletes the saved position', () =>
    pact
      .addInteraction()
      .given(states.progressSaved, { title: 'The Tell-Tale Heart', position_seconds: 1.5, current_chapter_id: null })
      .uponReceiving('a progress reset')
      .withRequest('DELETE', jobPath('/api/v1/progress/{id}'), (req) => req.headers(bearer()))
      .willRespondWith(204)
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        await expect(deleteProgress(EXAMPLE_JOB_ID)).resolves.toBeNull();
      }));
});

describe('recent progress', () => {
  it('lists the recently played books with their titles', () =>
    pact
      .addInteraction()
      .given(states.progressSaved, { title: 'The Tell-Tale Heart', position_seconds: 1.5, current_chapter_id: null })
      .uponReceiving('a request for recently played books')
      .withRequest('GET', '/api/v1/progress/user/recent', (req) => req.headers(bearer()).query({ limit: '10' }))
      .willRespondWith(200, (res) => res.jsonBody(eachLike(progressRecord())))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const recent = await getRecentProgress({ limit: 10 });
        expect(recent.length).toBeGreaterThan(0);
        expect(recent[0]?.job_title).toBe('The Tell-Tale Heart');
        expect(recent[0]?.job_id).toBe(EXAMPLE_JOB_ID);
      }));
});
