import { sendWithPrefix } from '../audio/range';
import type { FeedService, FeedView } from '../feeds/service';
import {
  CreateFeedBody,
  CreateFeedResponse,
  DeleteFeedParams,
  GetFeedCoverParams,
  GetFeedEpisodeParams,
  GetFeedXmlParams,
  ListFeedsResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { absoluteUrl, type CrossOrigin } from '../http/cross-origin';
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

/**
 * What podcast apps fetch, at the root (`/feeds/...`): no sign-in, the token in the path is the
 * credential. Nothing here is cached by shared caches, and no answer names anything but the
 * feed's own book(s).
 */
export const publicFeedRoutes: RoutePlugin<{ feeds: FeedService; storage: FileStorage; urls: Urls }> = async (
  app,
  { feeds, storage, urls },
) => {
  app.get('/feeds/:token.xml', { schema: { params: GetFeedXmlParams } }, async (request, reply) => {
    const base = absoluteUrl(request, urls, '/').replace(/\/$/, '');
    const xml = await feeds.rss(request.params.token, base);
    return reply
      .type('application/rss+xml; charset=utf-8')
      .header('cache-control', 'private, no-cache')
      .header('x-robots-tag', 'noindex')
      .send(xml);
  });

  app.get('/feeds/:token/:jobId/:chapter.mp3', { schema: { params: GetFeedEpisodeParams } }, async (request, reply) => {
    const { token, jobId, chapter } = request.params;
    const episode = await feeds.episode(token, jobId, chapter);
    void reply.header('x-robots-tag', 'noindex');
    return sendWithPrefix(reply, storage, episode.key, episode.tag, request.headers.range, 'audio/mpeg');
  });

  app.get('/feeds/:token/:jobId/cover.jpg', { schema: { params: GetFeedCoverParams } }, async (request, reply) => {
    const image = await feeds.cover(request.params.token, request.params.jobId);
    return reply
      .type('image/jpeg')
      .header('cache-control', 'private, max-age=86400')
      .header('x-robots-tag', 'noindex')
      .send(image);
  });
};
