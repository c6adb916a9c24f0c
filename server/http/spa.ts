import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, sendError } from './errors';
import { styleNonce } from './security-headers';

function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/api/') &&
    request.url !== '/api' &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * The SPA's index.html, with this response's style nonce in <meta property="csp-nonce">, where
 * styled-components finds it and puts it on the <style> elements it inserts (the CSP allows
 * styles with that nonce only). Read on each request, so a rebuilt dist/ is served as it is.
 */
async function sendIndex(staticDir: string, reply: FastifyReply): Promise<FastifyReply> {
  const html = await readFile(path.join(staticDir, 'index.html'), 'utf8');
  const meta = `<meta property="csp-nonce" content="${styleNonce(reply)}" />`;
  // Right after <head> (or after the doctype when a page has no <head> tag).
  const anchor = /<head[^>]*>/i.test(html) ? /<head[^>]*>/i : /^\s*<!doctype[^>]*>/i;
  const withNonce = anchor.test(html) ? html.replace(anchor, (found) => `${found}${meta}`) : meta + html;
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(withNonce);
}

/**
 * Files a browser must revalidate on each request: index.html, the service worker (a stale copy
 * would hold back the app's updates) and the web manifest.
 */
const REVALIDATED = new Set(['index.html', 'sw.js', 'manifest.webmanifest']);

/**
 * Serves the built SPA; hashed assets are cached for good, index.html, the service worker and the
 * manifest are revalidated each time.
 */
export async function installSpa(app: FastifyInstance, staticDir: string): Promise<void> {
  app.get('/', (_request, reply) => sendIndex(staticDir, reply));
  app.get('/index.html', (_request, reply) => sendIndex(staticDir, reply));
  await app.register(fastifyStatic, {
    root: staticDir,
    index: false,
    wildcard: true,
    setHeaders(reply, filePath) {
      if (REVALIDATED.has(path.basename(filePath))) reply.header('cache-control', 'no-cache');
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
      return sendIndex(staticDir, reply);
    }
    const route = request.url.split('?')[0];
    const detail = route?.startsWith('/api')
      ? `No API endpoint ${request.method} ${route}`
      : `Not found: ${request.method} ${route}`;
    return sendError(reply, new HttpError(404, detail));
  });
}
