import Fastify from 'fastify';
import { DomainError, type DomainErrorKind } from '../errors';
import { IngestError } from '../ingest/errors';
import { StorageUnavailableError } from '../storage/types';
import { TtsError } from '../tts/types';
import { installErrorHandler, STATUS_BY_KIND } from './errors';

/** A bare app with the one error handler and a route that throws `error`. */
async function answerTo(error: Error) {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.get('/fail', async () => {
    throw error;
  });
  const res = await app.inject({ method: 'GET', url: '/fail' });
  await app.close();
  return res;
}

describe('the one error model', () => {
  const expected: [DomainErrorKind, number][] = [
    ['malformed', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['too_large', 413],
    ['quota_exceeded', 413],
    ['unsupported', 415],
    ['invalid', 422],
    ['rate_limited', 429],
    ['upstream_failed', 502],
    ['unavailable', 503],
    ['upstream_timeout', 504],
    ['insufficient_storage', 507],
  ];

  it.each(expected)('answers a %s error with %i and {detail, message, request_id}', async (kind, status) => {
    const res = await answerTo(new DomainError(kind, `Something ${kind}`));
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({
      detail: `Something ${kind}`,
      message: `Something ${kind}`,
      request_id: expect.any(String),
    });
  });

  it('has a status for every kind and no other', () => {
    expect(Object.entries(STATUS_BY_KIND).sort()).toEqual([...expected].sort());
  });

  it('says Retry-After for rate limits and a store that is down, and asks for a bearer token on 401', async () => {
    const limited = await answerTo(new DomainError('rate_limited', 'Slow down', { retryAfterSeconds: 30 }));
    expect(limited.headers['retry-after']).toBe('30');
    const down = await answerTo(new StorageUnavailableError(new Error('ECONNREFUSED')));
    expect([down.statusCode, down.headers['retry-after'], down.json().detail]).toEqual([
      503,
      '5',
      'The file store is unavailable; try again shortly',
    ]);
    expect((await answerTo(new DomainError('unauthenticated', 'Token expired'))).headers['www-authenticate']).toBe(
      'Bearer',
    );
  });

  it('answers an error it does not know with 500 and no internals', async () => {
    const res = await answerTo(new Error('connection string postgres://secret'));
    expect([res.statusCode, res.json().detail]).toEqual([500, 'Internal server error']);
  });

  it('marks as retryable what may pass later: by kind, unless the error says otherwise', () => {
    expect(new DomainError('invalid', 'x').retryable).toBe(false);
    expect(new DomainError('upstream_failed', 'x').retryable).toBe(false);
    expect(new DomainError('rate_limited', 'x').retryable).toBe(true);
    expect(new DomainError('not_found', 'x', { retryable: true }).retryable).toBe(true);
    // A page that timed out is tried again; one that answered 404 or is not HTML is not.
    expect(new IngestError('upstream_timeout', 'The page did not answer within 15 seconds').retryable).toBe(true);
    expect(new IngestError('upstream_failed', 'The page answered 404 Not Found').retryable).toBe(false);
    expect(new StorageUnavailableError(null).retryable).toBe(true);
    // A voice engine decides for itself: a 5xx after its retries may pass, a refused key will not.
    const server = new TtsError('OpenAI failed', { retryable: true, code: 'server', engine: 'openai', status: 500 });
    const auth = new TtsError('The key was refused', { retryable: false, code: 'auth', engine: 'openai', status: 401 });
    expect([server.kind, server.retryable, auth.kind, auth.retryable]).toEqual([
      'upstream_failed',
      true,
      'upstream_failed',
      false,
    ]);
  });
});
