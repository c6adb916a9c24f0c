import { sendMedia, sendWithPrefix } from '../audio/range';
import type { MediaTagger } from '../exports/media-tags';
import {
  GetAudioCoverParams,
  GetAudioMetadataParams,
  GetAudioMetadataResponse,
  GetAudioPlaylistParams,
  GetAudioStreamParams,
  GetAudioStreamResponse,
  getMediaPathFileKeyMax,
  getMediaPathFileKeyRegExp,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { absoluteUrl, type CrossOrigin } from '../http/cross-origin';
import { HttpError } from '../http/errors';
import { etagMatches, type CoverService } from '../listening/covers';
import { AUDIO_CONTENT_TYPE, type ListeningService, type ResumeInfo } from '../listening/service';
import { isValidKey, type FileStorage } from '../storage/types';
import type { RoutePlugin } from './types';

function resumeDto(resume: ResumeInfo) {
  return {
    has_progress: resume.hasProgress,
    resume_position: resume.resumePosition,
    percentage_complete: resume.percentageComplete,
    last_played_at: resume.lastPlayedAt?.toISOString() ?? null,
    current_chapter_id: resume.currentChapterId,
    current_chapter_position: resume.currentChapterPosition,
  };
}

function firstValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export const audioRoutes: RoutePlugin<{
  listening: ListeningService;
  storage: FileStorage;
  covers: CoverService;
  urls: Pick<CrossOrigin, 'publicUrl'>;
  /** The ID3 tag sent in front of a finished book's stored MP3s. */
  mediaTags: MediaTagger;
}> = async (app, { listening, storage, covers, urls, mediaTags }) => {
  // Every book's cover: the one supplied with it (EPUB), else a generated SVG. Owner only, cacheable (ETag).
  app.get('/audio/:jobId/cover', { schema: { params: GetAudioCoverParams } }, async (request, reply) => {
    const cover = await covers.cover(requireUser(request).id, request.params.jobId);
    void reply
      .header('etag', cover.etag)
      .header('cache-control', cover.cacheControl)
      .header('x-content-type-options', 'nosniff');
    // An SVG opened on its own is a document: it may load nothing and run nothing.
    if (cover.generated)
      void reply.header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      );
    if (etagMatches(request.headers['if-none-match'], cover.etag)) {
      if (!Buffer.isBuffer(cover.body)) (cover.body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      return reply.code(304).send();
    }
    return reply.type(cover.contentType).header('content-length', String(cover.size)).send(cover.body);
  });

  app.get(
    '/audio/:jobId/stream',
    { schema: { params: GetAudioStreamParams, response: { 200: GetAudioStreamResponse } } },
    async (request) => {
      const info = await listening.streamInfo(requireUser(request).id, request.params.jobId);
      return {
        // Absolute, so an <audio> element on another origin (CORS_ORIGINS) loads it from us.
        streaming_url: absoluteUrl(request, urls, info.streamingUrl),
        expires_at: info.expiresAt.toISOString(),
        file_key: info.fileKey,
        content_type: info.contentType,
        resume_info: resumeDto(info.resume),
        source_job_id: info.sourceJobId,
      };
    },
  );

  app.get(
    '/audio/:jobId/metadata',
    { schema: { params: GetAudioMetadataParams, response: { 200: GetAudioMetadataResponse } } },
    async (request) => {
      const meta = await listening.metadata(requireUser(request).id, request.params.jobId);
      const resume = resumeDto(meta.resume);
      return {
        job_id: meta.job.id,
        title: meta.job.title,
        status: meta.job.status as 'COMPLETED' | 'PENDING' | 'PROCESSING',
        format: meta.format,
        duration: meta.duration,
        file_size: meta.fileSize,
        created_at: meta.job.createdAt.toISOString(),
        completed_at: meta.job.completedAt?.toISOString() ?? null,
        chapters: meta.chapters.map(({ id, title, order, start, duration, ready, playableSeconds }) => ({
          id,
          title,
          order,
          start,
          duration,
          ready,
          playable_seconds: playableSeconds,
        })),
        chapters_ready: meta.chaptersReady,
        estimated_duration: meta.estimatedDuration,
        ...(meta.job.provider !== null && { provider: meta.job.provider }),
        ...(meta.ttsEngine !== null && { tts_engine: meta.ttsEngine }),
        ...(meta.sampleRate !== null && { sample_rate: meta.sampleRate }),
        ...(meta.bitrateKbps !== null && { bitrate_kbps: meta.bitrateKbps }),
        resume_position: resume.resume_position,
        percentage_complete: resume.percentage_complete,
        last_played_at: resume.last_played_at,
        current_chapter_id: resume.current_chapter_id,
        current_chapter_position: resume.current_chapter_position,
      };
    },
  );

  app.get('/audio/:jobId/playlist', { schema: { params: GetAudioPlaylistParams } }, async (request, reply) => {
    const m3u = await listening.playlist(requireUser(request).id, request.params.jobId, (path) =>
      absoluteUrl(request, urls, path),
    );
    return reply.type('audio/x-mpegurl; charset=utf-8').header('cache-control', 'no-store').send(m3u);
  });

  // The signature is the credential: an <audio> element cannot send a bearer token.
  // The key holds '/', hence the wildcard; Fastify hands it over URL-decoded.
  app.get('/media/*', { config: { public: true } }, async (request, reply) => {
    const fileKey = (request.params as { '*'?: string })['*'] ?? '';
    const valid =
      fileKey.length <= getMediaPathFileKeyMax && getMediaPathFileKeyRegExp.test(fileKey) && isValidKey(fileKey);
    if (!valid) throw new HttpError(403, 'Invalid link');
    const query = request.query as Record<string, unknown>;
    listening.authorizeMedia(fileKey, firstValue(query.expires), firstValue(query.sig));
    // An object store with presigning on serves the bytes itself, until this link's own expiry.
    const secondsLeft = Number(firstValue(query.expires)) - Math.floor(Date.now() / 1000);
    const direct = await storage.directUrl(fileKey, Math.max(1, Math.min(secondsLeft, 7 * 24 * 3600)));
    if (direct !== null) return reply.header('cache-control', 'no-store').redirect(direct, 302);
    // A finished book's MP3 goes with its ID3 tag in front (server/exports/media-tags.ts).
    const tag = await mediaTags.prefixFor(fileKey);
    if (tag !== null) return sendWithPrefix(reply, storage, fileKey, tag, request.headers.range, AUDIO_CONTENT_TYPE);
    return sendMedia(reply, storage, fileKey, request.headers.range, AUDIO_CONTENT_TYPE);
  });
};
