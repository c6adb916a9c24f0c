import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJob } from './gen/endpoints/jobs';
import { ApiError, errorMessage, isRetryable } from './errors';
import { configureApi } from './http';

const jobId = '9b2e7c1a-4d5f-4e6a-8b9c-0d1e2f3a4b5c';
const server = setupServer();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the client error model (every generated call rejects with an ApiError)', () => {
  it("reads the contract's ErrorBody: detail, message, request id and field errors; a 4xx is not retryable", async () => {
    server.use(
      http.get('*/api/v1/jobs/:jobId', () =>
        HttpResponse.json(
          {
            detail: 'Invalid job id',
            message: 'The job id must be a UUID',
            request_id: 'req-42',
            errors: [{ field: 'jobId', message: 'must be a UUID' }],
          },
          { status: 422 },
        ),
      ),
    );
    const error = await failureOf(getJob(jobId));
    expect(error).toMatchObject({
      status: 422,
      detail: 'Invalid job id',
      serverMessage: 'The job id must be a UUID',
      message: 'The job id must be a UUID',
      requestId: 'req-42',
      fieldErrors: [{ field: 'jobId', message: 'must be a UUID' }],
      retryable: false,
      notFound: true,
    });
    expect(errorMessage(error, 'Failed to fetch job')).toBe('The job id must be a UUID');
  });

  it('a 503 without a body is retryable, names its request from the header and shows the caller default', async () => {
    server.use(
      http.get(
        '*/api/v1/jobs/:jobId',
        () => new HttpResponse(null, { status: 503, headers: { 'x-request-id': 'req-7' } }),
      ),
    );
    const error = await failureOf(getJob(jobId));
    expect(error).toMatchObject({ status: 503, requestId: 'req-7', retryable: true, serverMessage: undefined });
    expect(isRetryable(error)).toBe(true);
    expect(errorMessage(error, 'Failed to fetch job')).toBe('Failed to fetch job');
  });

  it('the server may say itself whether a retry can help', async () => {
    server.use(
      http.get('*/api/v1/jobs/:jobId', () =>
        HttpResponse.json({ detail: 'Quota reached', message: 'Quota reached', retryable: true }, { status: 409 }),
      ),
    );
    expect((await failureOf(getJob(jobId))).retryable).toBe(true);
  });

  it('an unreachable server is status 0 and retryable', async () => {
    server.use(http.get('*/api/v1/jobs/:jobId', () => HttpResponse.error()));
    const error = await failureOf(getJob(jobId));
    expect(error).toMatchObject({ status: 0, retryable: true, message: 'The server could not be reached' });
  });

  it("an answer that breaks the contract is not retried; the reader sees the screen's words, the console the schema's", async () => {
    server.use(http.get('*/api/v1/jobs/:jobId', () => HttpResponse.json({ id: 42 })));
    const error = await getJob(jobId).catch((reason: unknown) => reason);
    expect(isRetryable(error)).toBe(false);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(errorMessage(error, 'Failed to fetch job')).toBe('Failed to fetch job');
    expect(logged).toHaveBeenCalledWith('An answer did not match the contract:', expect.any(Array));
    logged.mockRestore();
  });
});
