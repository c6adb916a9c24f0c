import {
  DeleteProgressParams,
  GetProgressParams,
  GetProgressResponse,
  GetRecentProgressQueryParams,
  GetRecentProgressResponse,
  SaveProgressBody,
  SaveProgressParams,
  SaveProgressResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import type { PlaybackProgress, ProgressService } from '../progress/service';
import type { RoutePlugin } from './types';

export function progressDto(p: PlaybackProgress) {
  return {
    id: p.id,
    user_id: p.userId,
    job_id: p.jobId,
    job_title: p.jobTitle,
    position_seconds: p.positionSeconds,
    duration_seconds: p.durationSeconds,
    percentage_complete: p.percentageComplete,
    current_chapter_id: p.currentChapterId,
    current_chapter_position: p.currentChapterPosition,
    is_completed: p.isCompleted,
    last_played_at: p.lastPlayedAt.toISOString(),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export const progressRoutes: RoutePlugin<{ progress: ProgressService }> = async (app, { progress }) => {
  // Registered before /progress/:jobId so "user" is never read as a job id.
  app.get(
    '/progress/user/recent',
    { schema: { querystring: GetRecentProgressQueryParams, response: { 200: GetRecentProgressResponse } } },
    async (request) => (await progress.recent(requireUser(request).id, request.query.limit)).map(progressDto),
  );

  app.get(
    '/progress/:jobId',
    { schema: { params: GetProgressParams, response: { 200: GetProgressResponse } } },
    async (request, reply) => {
      const record = await progress.get(requireUser(request).id, request.params.jobId);
      // A bare `null` must still go out as JSON, not as an empty body.
      return reply.type('application/json; charset=utf-8').send(record === null ? null : progressDto(record));
    },
  );

  app.put(
    '/progress/:jobId',
    { schema: { params: SaveProgressParams, body: SaveProgressBody, response: { 200: SaveProgressResponse } } },
    async (request) => {
      const { position_seconds, duration_seconds, current_chapter_id, current_chapter_position } = request.body;
      const saved = await progress.save(requireUser(request).id, request.params.jobId, {
        positionSeconds: position_seconds,
        durationSeconds: duration_seconds,
        currentChapterId: current_chapter_id,
        currentChapterPosition: current_chapter_position,
      });
      return progressDto(saved);
    },
  );

  app.delete('/progress/:jobId', { schema: { params: DeleteProgressParams } }, async (request, reply) => {
    await progress.reset(requireUser(request).id, request.params.jobId);
    return reply.code(204).send();
  });
};
