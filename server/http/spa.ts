import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, sendError } from './errors';

function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/api/') &&
    request.url !== '/api' &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/** Serves the built SPA; hashed assets are cached for good, index.html is revalidated each time. */
export async function installSpa(app: FastifyInstance, staticDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: staticDir,
    wildcard: true,
    setHeaders(reply, filePath) {
      if (path.basename(filePath) === 'index.html') reply.header('cache-control', 'no-cache');
      else if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
}

/**
 * Unknown paths: a browser navigating to a client-side route (/dashboard) gets the SPA's
 * index.html; anything else, and every unknown /api path, gets a JSON 404.
 */
export function installNotFound(app: FastifyInstance, staticDir: string | undefined): void {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (staticDir !== undefined && wantsHtml(request)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const route = request.url.split('?')[0];
    const detail = route?.startsWith('/api')
      ? `No API endpoint ${request.method} ${route}`
      : `Not found: ${request.method} ${route}`;
    return sendError(reply, new HttpError(404, detail));
  });
}
