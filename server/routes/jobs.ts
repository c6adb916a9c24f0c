import {
  CancelJobParams,
  CancelJobQueryParams,
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
  ReconvertJobParams,
  ReconvertJobResponse,
  RetryJobParams,
  RetryJobResponse,
} from '../gen/contract.zod';
import { createHash } from 'node:crypto';
import etag from '@fastify/etag';
import * as z from 'zod';
import { requireUser } from '../http/auth-guard';
import { checkedSerializer } from '../http/compiled-serializer';
import type { ZodTypeProvider } from '../http/zod';
import type { ListCache } from '../jobs/list-cache';
import type { Reconverter } from '../jobs/reconvert';
import type { JobService } from '../jobs/service';
import type { RoutePlugin } from './types';

/**
 * A job's text may be 10,000,000 characters (the contract's maxLength). 12 MB of JSON holds that
 * much plain text; a body over it answers 413 in the words of the upload form.
 */
export const JOB_BODY_LIMIT = 12 * 1024 * 1024;

export const jobRoutes: RoutePlugin<{
  jobs: JobService;
  reconverter: Reconverter;
  strictResponses: boolean;
  listCache: ListCache;
}> = async (app, { jobs, reconverter, strictResponses, listCache }) => {
  // A body over the limit is answered in the words of the upload form (by the app's one error handler).
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, bodyTooLargeMessage: 'The text is larger than 10 MB' };
  });

  // The list is what every open browser polls: one query per page, summaries only, a compiled
  // serializer, pages kept until their owner's jobs change (jobs/list-cache.ts), and an ETag so an
  // unchanged page answers 304 with no body. `private, no-cache` lets the browser keep the page
  // and revalidate it (If-None-Match) on every fetch.
  const writeList = checkedSerializer(ListJobsResponse, strictResponses);
  await app.register(async (list) => {
    await list.register(etag);
    list.withTypeProvider<ZodTypeProvider>().get(
      '/jobs',
      {
        schema: { querystring: ListJobsQueryParams },
        // The status filter is case-insensitive: `COMPLETED`, `completed` and `Completed` are one filter.
        preValidation: async (request) => {
          const query = request.query as Record<string, unknown>;
          if (typeof query.status === 'string') query.status = query.status.toLowerCase();
        },
      },
      async (request, reply) => {
        const q = request.query;
        const userId = requireUser(request).id;
        reply
          .header('cache-control', 'private, no-cache')
          .header('vary', 'Authorization')
          .type('application/json; charset=utf-8');
        const key = JSON.stringify([userId, q.page, q.page_size, q.status, q.q, q.sort, q.order, q.top_level]);
        const cached = listCache.get(key, userId);
        if (cached !== null) return reply.header('etag', cached.etag).send(cached.body);
        const stamp = listCache.stamp(userId);
        const page = await jobs.list({
          userId,
          page: q.page,
          pageSize: q.page_size,
          status: q.status?.toLowerCase() as Parameters<JobService['list']>[0]['status'],
          q: q.q,
          sort: q.sort,
          order: q.order,
          topLevel: q.top_level,
        });
        const body = writeList(page);
        const tag = `"${createHash('sha1').update(body).digest('base64url')}"`;
        // A page with waiting jobs is not kept: their places move with other users' jobs.
        if (!page.jobs.some((j) => 'queue_position' in j)) listCache.set(key, userId, stamp, { etag: tag, body });
        return reply.header('etag', tag).send(body);
      },
    );
  });

  app.post(
    '/jobs',
    { bodyLimit: JOB_BODY_LIMIT, schema: { body: CreateJobBody, response: { 201: CreateJobResponse } } },
    async (request, reply) => reply.code(201).send(await jobs.create(requireUser(request).id, request.body)),
  );

  app.post(
    '/jobs/preview',
    { bodyLimit: JOB_BODY_LIMIT, schema: { body: PreviewJobBody, response: { 200: PreviewJobResponse } } },
    // A web page that cannot be fetched or read fails with the same words as a failed page job.
    async (request) => jobs.preview(requireUser(request).id, request.body),
  );

  app.get('/jobs/:jobId', { schema: { params: GetJobParams, response: { 200: GetJobResponse } } }, async (request) =>
    jobs.get(requireUser(request).id, request.params.jobId),
  );

  // An unfinished job is cancelled (200, the job); a finished one is deleted (204). See docs/api.md.
  app.delete(
    '/jobs/:jobId',
    {
      schema: {
        params: CancelJobParams,
        querystring: CancelJobQueryParams,
        response: { 200: CancelJobResponse, 204: z.undefined() },
      },
    },
    async (request, reply) => {
      const cancelled = await jobs.cancelOrRemove(requireUser(request).id, request.params.jobId, {
        remove: request.query.delete,
      });
      return cancelled === null ? reply.code(204).send() : cancelled;
    },
  );

  app.get(
    '/jobs/:jobId/steps',
    { schema: { params: GetJobStepsParams, response: { 200: GetJobStepsResponse } } },
    async (request) => jobs.steps(requireUser(request).id, request.params.jobId),
  );

  app.post(
    '/jobs/:jobId/retry',
    { schema: { params: RetryJobParams, response: { 200: RetryJobResponse } } },
    async (request) => jobs.retry(requireUser(request).id, request.params.jobId),
  );

  app.post(
    '/jobs/:jobId/reconvert',
    { schema: { params: ReconvertJobParams, response: { 200: ReconvertJobResponse } } },
    async (request) => {
      const userId = requireUser(request).id;
      const chapters = await reconverter.reconvert(userId, request.params.jobId);
      return { chapters, status: (await jobs.get(userId, request.params.jobId)).status };
    },
  );
};
