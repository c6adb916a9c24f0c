import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendWithPrefix } from '../audio/range';
import { describeWait } from '../auth/service';
import type { FeedService, FeedView } from '../feeds/service';
import {
  CreateFeedBody,
  CreateFeedResponse,
  DeleteFeedParams,
  GetFeedCoverParams,
  GetFeedEpisodeChaptersParams,
  GetFeedEpisodeParams,
  GetFeedEpisodeTranscriptParams,
  GetFeedXmlParams,
  ListFeedsResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { absoluteUrl, type CrossOrigin } from '../http/cross-origin';
import { HttpError } from '../http/errors';
import type { FileStorage } from '../storage/types';
import type { RoutePlugin } from './types';

type Urls = Pick<CrossOrigin, 'publicUrl'>;

/** The owner's side, under /api/v1: create, list and revoke feeds. */
export const feedRoutes: RoutePlugin<{ feeds: FeedService; urls: Urls }> = async (app, { feeds, urls }) => {
  const dto = (request: Parameters<typeof absoluteUrl>[0], f: FeedView) => ({
    id: f.id,
    url: absoluteUrl(request, urls, f.path),
    job_id: f.jobId,
    title: f.title,
    created_at: f.createdAt.toISOString(),
  });

  app.get('/feeds', { schema: { response: { 200: ListFeedsResponse } } }, async (request) => ({
    feeds: (await feeds.list(requireUser(request).id)).map((f) => dto(request, f)),
  }));

  app.post(
    '/feeds',
    { schema: { body: CreateFeedBody, response: { 200: CreateFeedResponse, 201: CreateFeedResponse } } },
    async (request, reply) => {
      const { feed, created } = await feeds.create(requireUser(request).id, request.body.job_id ?? null);
      return reply.code(created ? 201 : 200).send(dto(request, feed));
    },
  );

  app.delete('/feeds/:feedId', { schema: { params: DeleteFeedParams } }, async (request, reply) => {
    await feeds.remove(requireUser(request).id, request.params.feedId);
    return reply.code(204).send();
  });
};

/** Requests a minute the public feed routes take from one feed (its token or its id) and from one address. */
export interface FeedRateLimits {
  perFeed: number;
  perAddress: number;
}

/** Whether the client's copy, named by its validators, is still the feed's current one. */
function stillFresh(headers: FastifyRequest['headers'], etag: string, lastModified: Date): boolean {
  const match = headers['if-none-match'];
  if (match !== undefined) return match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  const since = Date.parse(headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

/**
 * The headers of an episode's chapters or transcript. Podcast apps in a browser fetch them from
 * their own origin: any origin may read them, as the signed link (no cookie, no token) is all
 * that opens them. A link names one version of the book, so its answer never changes.
 */
const companion = (reply: FastifyReply, type: string) =>
  reply
    .type(type)
    .header('cache-control', 'private, max-age=86400')
    .header('access-control-allow-origin', '*')
    .header('x-robots-tag', 'noindex');

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * What podcast apps fetch, at the root (`/feeds/...`): no sign-in, the token in the feed's path is
 * the credential, and each episode, chapters, transcript or cover link is signed for its one file
 * (feeds/episode-links.ts).
 * Nothing here is cached by shared caches, and no answer names anything but the feed's own
 * book(s). Every route is limited per feed and per client address (429 with Retry-After).
 */
export const publicFeedRoutes: RoutePlugin<{
  feeds: FeedService;
  storage: FileStorage;
  urls: Urls;
  limits: FeedRateLimits;
}> = async (app, { feeds, storage, urls, limits }) => {
  const perFeed = app.createRateLimit({
    max: limits.perFeed,
    timeWindow: 60_000,
    keyGenerator: (request) => {
      const params = request.params as { token?: string; feedId?: string };
      return `feed:${params.feedId ?? hashed(params.token ?? '')}`;
    },
  });
  const perAddress = app.createRateLimit({ max: limits.perAddress, timeWindow: 60_000 });
  const limited = async (request: FastifyRequest) => {
    for (const [limit, who] of [
      [perAddress, 'your network'],
      [perFeed, 'this feed'],
    ] as const) {
      const state = await limit(request);
      if (!state.isAllowed && state.isExceeded) {
        const wait = Math.max(1, state.ttlInSeconds);
        throw new HttpError(429, `Too many requests for ${who}. Try again in ${describeWait(wait)}.`, {
          headers: { 'retry-after': String(wait) },
        });
      }
    }
  };

  app.get('/feeds/:token.xml', { onRequest: limited, schema: { params: GetFeedXmlParams } }, async (request, reply) => {
    const base = absoluteUrl(request, urls, '/').replace(/\/$/, '');
    const feed = await feeds.rss(request.params.token, base);
    void reply
      .header('cache-control', 'private, no-cache')
      .header('x-robots-tag', 'noindex')
      .header('etag', feed.etag)
      .header('last-modified', feed.lastModified.toUTCString());
    if (stillFresh(request.headers, feed.etag, feed.lastModified)) return reply.code(304).send();
    return reply.type('application/rss+xml; charset=utf-8').send(await feed.xml());
  });

  app.get(
    '/feeds/episodes/:feedId/:jobId/:chapter/:signature.mp3',
    { onRequest: limited, schema: { params: GetFeedEpisodeParams } },
    async (request, reply) => {
      const episode = await feeds.episode(request.params);
      void reply.header('x-robots-tag', 'noindex');
      return sendWithPrefix(reply, storage, episode.key, episode.tag, request.headers.range, 'audio/mpeg');
    },
  );

  app.get(
    '/feeds/episodes/:feedId/:jobId/:chapter/chapters/:signature.json',
    { onRequest: limited, schema: { params: GetFeedEpisodeChaptersParams } },
    async (request, reply) => {
      const chapters = await feeds.chapters(request.params);
      return companion(reply, 'application/json+chapters; charset=utf-8').send(chapters);
    },
  );

  app.get(
    '/feeds/episodes/:feedId/:jobId/:chapter/transcript/:signature.vtt',
    { onRequest: limited, schema: { params: GetFeedEpisodeTranscriptParams } },
    async (request, reply) => {
      const vtt = await feeds.transcript(request.params);
      return companion(reply, 'text/vtt; charset=utf-8').send(vtt);
    },
  );

  app.get(
    '/feeds/episodes/:feedId/:jobId/cover/:signature.jpg',
    { onRequest: limited, schema: { params: GetFeedCoverParams } },
    async (request, reply) => {
      const image = await feeds.cover(request.params);
      return reply
        .type('image/jpeg')
        .header('cache-control', 'private, max-age=86400')
        .header('x-robots-tag', 'noindex')
        .send(image);
    },
  );
};
