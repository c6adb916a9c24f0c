import type { FastifyInstance } from 'fastify';

/** Fastify's own code for a body of a type no parser takes: the app's error handler answers it 415. */
const UNSUPPORTED = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';

/**
 * JSON bodies as Fastify parses them (prototype-poisoning checks included), except that an empty
 * body is "no body": many clients send `Content-Type: application/json` on every request, also on
 * POSTs that take none (connect, stop, retry). Fastify alone answers those with 400; here the route
 * sees `undefined`, so a route that needs a body still says which fields are missing (422).
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // Fastify's parser answers through `done`; its typing also allows a promise, which settles the same way.
    void parseJson(request, text, done);
  });
  // A body-less POST sent as an empty chunked body without a content type (some HTTP tools do)
  // is "no body" too; any other body of a type no parser takes is still refused with 415.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if (request.headers['content-type'] === undefined && body.length === 0) {
      done(null, undefined);
      return;
    }
    done(Object.assign(new Error('Unsupported content type'), { code: UNSUPPORTED, statusCode: 415 }), undefined);
  });
}
