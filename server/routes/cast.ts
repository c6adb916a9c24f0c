import {
  GetAudioCastParams,
  GetAudioCastResponse,
  PutAudioCastBody,
  PutAudioCastParams,
  PutAudioCastResponse,
} from '../gen/contract.zod';
import type { CastService } from '../cast/service';
import { requireUser } from '../http/auth-guard';
import type { RoutePlugin } from './types';

/** A cast correction is a few hundred voices and lines at most: 256 KB is plenty. */
const CAST_BODY_LIMIT = 256 * 1024;

/** GET/PUT /audio/{jobId}/cast: a full-cast book's narrator and characters, and the listener's corrections (owner only). */
export const castRoutes: RoutePlugin<{ cast: CastService }> = async (app, { cast }) => {
  app.get(
    '/audio/:jobId/cast',
    { schema: { params: GetAudioCastParams, response: { 200: GetAudioCastResponse } } },
    async (request, reply) => {
      const view = await cast.view(requireUser(request).id, request.params.jobId);
      // The listener may change it at any time.
      void reply.header('cache-control', 'private, no-cache');
      return view;
    },
  );

  app.put(
    '/audio/:jobId/cast',
    {
      bodyLimit: CAST_BODY_LIMIT,
      config: { bodyTooLargeMessage: 'A cast change is larger than 256 KB: send fewer changes at once' },
      schema: { params: PutAudioCastParams, body: PutAudioCastBody, response: { 200: PutAudioCastResponse } },
    },
    async (request) => cast.update(requireUser(request).id, request.params.jobId, request.body),
  );
};
