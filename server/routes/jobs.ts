import {
  CancelJobParams,
  CancelJobResponse,
  CreateJobBody,
  CreateJobResponse,
  GetJobParams,
  GetJobResponse,
  GetJobStepsParams,
  GetJobStepsResponse,
  ListJobsQueryParams,
  ListJobsResponse,
  PreviewJobBody,
  PreviewJobResponse,
  RetryJobParams,
  RetryJobResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { HttpError } from '../http/errors';
import { isIngestError } from '../ingest/errors';
import type { JobService } from '../jobs/service';
import type { RoutePlugin } from './types';

/**
 * A job's text may be 10,000,000 characters (the contract's maxLength). 12 MB of JSON holds that
 * much plain text; a body over it answers 413 in the words of the upload form.
 */
export const JOB_BODY_LIMIT = 12 * 1024 * 1024;

export const jobRoutes: RoutePlugin<{ jobs: JobService }> = async (app, { jobs }) => {
  app.setErrorHandler((error, _request, _reply) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new HttpError(413, 'The text is larger than 10 MB');
    }
    throw error; // the API's error handler answers everything else
  });

  app.get(
    '/jobs',
    {
      schema: { querystring: ListJobsQueryParams, response: { 200: ListJobsResponse } },
      // The status filter is case-insensitive: `COMPLETED`, `completed` and `Completed` are one filter.
      preValidation: async (request) => {
        const query = request.query as Record<string, unknown>;
        if (typeof query.status === 'string') query.status = query.status.toLowerCase();
      },
    },
    async (request) => {
    const q = request.query;
    return jobs.list({
      userId: requireUser(request).id,
      page: q.page,
      pageSize: q.page_size,
      status: q.status?.toLowerCase() as Parameters<JobService['list']>[0]['status'],
      q: q.q,
      sort: q.sort,
      order: q.order,
      topLevel: q.top_level,
    });
    },
  );

  app.post(
    '/jobs',
    { bodyLimit: JOB_BODY_LIMIT, schema: { body: CreateJobBody, response: { 201: CreateJobResponse } } },
    async (request, reply) => reply.code(201).send(await jobs.create(requireUser(request).id, request.body)),
  );

  app.post(
    '/jobs/preview',
    { bodyLimit: JOB_BODY_LIMIT, schema: { body: PreviewJobBody, response: { 200: PreviewJobResponse } } },
    async (request) => {
      try {
        return await jobs.preview(requireUser(request).id, request.body);
      } catch (error) {
        // A web page that cannot be fetched or read: the same words as a failed page job.
        if (isIngestError(error)) throw new HttpError(error.status, error.message);
        throw error;
      }
    },
  );

  app.get('/jobs/:jobId', { schema: { params: GetJobParams, response: { 200: GetJobResponse } } }, async (request) =>
    jobs.get(requireUser(request).id, request.params.jobId),
  );

  app.delete('/jobs/:jobId', { schema: { params: CancelJobParams, response: { 200: CancelJobResponse } } }, async (request) =>
    jobs.cancel(requireUser(request).id, request.params.jobId),
  );

  app.get(
    '/jobs/:jobId/steps',
    { schema: { params: GetJobStepsParams, response: { 200: GetJobStepsResponse } } },
    async (request) => jobs.steps(requireUser(request).id, request.params.jobId),
  );

  app.post('/jobs/:jobId/retry', { schema: { params: RetryJobParams, response: { 200: RetryJobResponse } } }, async (request) =>
    jobs.retry(requireUser(request).id, request.params.jobId),
  );
};
