import {
  GetAudioTranscriptParams,
  GetAudioTranscriptQueryParams,
  GetAudioTranscriptResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import type { TranscriptService } from '../listening/transcript';
import type { RoutePlugin } from './types';

/** GET /audio/{jobId}/transcript: one chapter's timed sentences, for reading along (owner only). */
export const transcriptRoutes: RoutePlugin<{ transcripts: TranscriptService }> = async (app, { transcripts }) => {
  app.get(
    '/audio/:jobId/transcript',
    {
      schema: {
        params: GetAudioTranscriptParams,
        querystring: GetAudioTranscriptQueryParams,
        response: { 200: GetAudioTranscriptResponse },
      },
    },
    async (request, reply) => {
      const t = await transcripts.transcript(requireUser(request).id, request.params.jobId, request.query.chapter);
      // Private and short-lived: the text is the user's own, and a chapter still converting becomes readable.
      void reply.header('cache-control', 'private, no-cache');
      return {
        job_id: t.jobId,
        chapter: t.chapter,
        chapter_count: t.chapterCount,
        sentences: t.sentences.map((s) => ({
          index: s.index,
          start: s.start,
          end: s.end,
          text: s.text,
          char_start: s.charStart,
          char_end: s.charEnd,
          paragraph_start: s.paragraphStart,
          ...(s.words !== undefined && { words: s.words }),
          ...(s.spans !== undefined && { spans: s.spans }),
        })),
      };
    },
  );
};
