import { GetVoiceSampleParams, ListVoicesResponse } from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { HttpError } from '../http/errors';
import type { FileStorage } from '../storage/types';
import type { VoiceCatalog } from '../voices/catalog';
import type { VoiceSamples } from '../voices/samples';
import type { RoutePlugin } from './types';

/** Samples asked for per minute by one client address (each new one is synthesised). */
export const SAMPLE_REQUESTS_PER_MINUTE = 30;

const samplePath = (provider: string, id: string) =>
  `/api/v1/voices/${encodeURIComponent(provider)}/${encodeURIComponent(id)}/sample`;

export const voiceRoutes: RoutePlugin<{ catalog: VoiceCatalog; samples: VoiceSamples; storage: FileStorage }> = async (
  app,
  { catalog, samples, storage },
) => {
  app.get('/voices', { schema: { response: { 200: ListVoicesResponse } } }, async (request) => {
    requireUser(request);
    const { voices, sources } = await catalog.list();
    return {
      voices: voices.map((v) => ({
        provider: v.provider,
        id: v.id,
        name: v.name,
        language: v.language,
        sample_url: samplePath(v.provider, v.id),
        default: v.default,
      })),
      sources: sources.map((s) => ({
        provider: s.provider,
        name: s.name,
        status: s.status,
        ...(s.detail !== undefined && { detail: s.detail }),
      })),
    };
  });

  // The same file for every user; made once, then served from storage.
  app.get(
    '/voices/:provider/:voiceId/sample',
    {
      config: { rateLimit: { max: SAMPLE_REQUESTS_PER_MINUTE, timeWindow: 60_000 } },
      schema: { params: GetVoiceSampleParams },
    },
    async (request, reply) => {
      requireUser(request);
      const { provider, voiceId } = request.params;
      const voice = await catalog.find(provider, voiceId);
      if (voice === undefined) throw new HttpError(404, `There is no voice "${voiceId}" of ${provider} to sample`);
      const key = await samples.sampleKey(voice.provider, voice.id);
      const stat = await storage.stat(key);
      if (stat === null) throw new HttpError(404, 'The sample could not be found');
      return reply
        .type('audio/mpeg')
        .header('cache-control', 'private, max-age=86400')
        .header('content-length', String(stat.size))
        .send(storage.read(key));
    },
  );
};
