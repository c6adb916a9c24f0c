import { GetPronunciationsResponse, PutPronunciationsBody, PutPronunciationsResponse } from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import type { Pronunciation } from '../pronunciations/rules';
import type { PronunciationService } from '../pronunciations/service';
import type { RoutePlugin } from './types';

const dto = (p: Pronunciation) => ({ text: p.text, say_as: p.sayAs });

export const pronunciationRoutes: RoutePlugin<{ pronunciations: PronunciationService }> = async (
  app,
  { pronunciations },
) => {
  app.get('/pronunciations', { schema: { response: { 200: GetPronunciationsResponse } } }, async (request) =>
    (await pronunciations.list(requireUser(request).id)).map(dto),
  );

  app.put(
    '/pronunciations',
    { schema: { body: PutPronunciationsBody, response: { 200: PutPronunciationsResponse } } },
    async (request) => {
      const entries = request.body.map((e) => ({ text: e.text, sayAs: e.say_as }));
      return (await pronunciations.replace(requireUser(request).id, entries)).map(dto);
    },
  );
};
