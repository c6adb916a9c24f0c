import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

/** One fresh nonce per response, for the styles styled-components inserts at run time. */
const styleNonces = new WeakMap<object, string>();

function nonceFor(res: object): string {
  let nonce = styleNonces.get(res);
  if (nonce === undefined) {
    nonce = randomBytes(16).toString('base64');
    styleNonces.set(res, nonce);
  }
  return nonce;
}

/** The nonce this response's Content-Security-Policy allows styles with (the SPA's index.html passes it on). */
export function styleNonce(reply: FastifyReply): string {
  return nonceFor(reply.raw);
}

/** HSTS: one year, subdomains included; only sent on responses that went out over https. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every response, the SPA's and the API's (helmet, its middleware built once:
 * @fastify/helmet builds it again for every request, a thirtieth of a busy API's CPU):
 *
 * - Content-Security-Policy: everything from this origin only. No inline script (script-src
 *   'self' and script-src-attr 'none'); blob: is allowed for scripts because the microphone's
 *   AudioWorklet module is created from a Blob. Styles: styled-components inserts <style>
 *   elements at run time, so style-src carries a per-response nonce that index.html hands to it
 *   in <meta property="csp-nonce">; no 'unsafe-inline'. The page cannot be framed
 *   (frame-ancestors 'none').
 * - X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer, X-Frame-Options: DENY and
 *   Cross-Origin-Opener-Policy: same-origin.
 * - Cross-Origin-Resource-Policy: same-site, so another site cannot embed API answers or audio;
 *   cross-origin when CORS_ORIGINS lists sites that use this API (their <audio> elements load our
 *   media; which sites may read answers is still CORS's decision).
 * - Strict-Transport-Security only when the request came over https (directly, or through a
 *   TRUST_PROXY proxy that says so in X-Forwarded-Proto); a plain-http server on a LAN must not
 *   tell browsers to insist on https. upgrade-insecure-requests is left out for the same reason.
 */
export function installSecurityHeaders(app: FastifyInstance, options: { otherOriginsAllowed?: boolean } = {}): void {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        // The installable app: its web manifest and service worker come from this origin only.
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", 'blob:'],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", (_req: unknown, res: ServerResponse) => `'nonce-${nonceFor(res)}'`],
      },
    },
    crossOriginResourcePolicy: { policy: options.otherOriginsAllowed ? 'cross-origin' : 'same-site' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    headers(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
  });
}
