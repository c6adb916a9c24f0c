import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Where browsers reach this server, and which other origins may use it. A client deployed on its
 * own origin (a separate static site pointing at this API) needs absolute streaming and websocket
 * URLs, CORS answers for its fetches, and its websocket's Origin accepted.
 */
export interface CrossOrigin {
  /** PUBLIC_URL: the server's origin as browsers see it; undefined = each request's own. */
  publicUrl?: string | undefined;
  /** CORS_ORIGINS: exact origins allowed besides our own; '*' = any. */
  corsOrigins: readonly string[];
}

/** `scheme://host[:port]` this request reached us at (PUBLIC_URL wins over the request's Host). */
export function publicOrigin(request: FastifyRequest, { publicUrl }: Pick<CrossOrigin, 'publicUrl'>): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** An absolute URL for a path of ours, so it works from any origin (an <audio> src, a websocket). */
export function absoluteUrl(request: FastifyRequest, settings: Pick<CrossOrigin, 'publicUrl'>, path: string): string {
  return new URL(path, `${publicOrigin(request, settings)}/`).href;
}

/** The ws:// or wss:// twin of absoluteUrl. */
export function websocketUrl(request: FastifyRequest, settings: Pick<CrossOrigin, 'publicUrl'>, path: string): string {
  return absoluteUrl(request, settings, path).replace(/^http/, 'ws');
}

/**
 * Whether a websocket upgrade may proceed. Browsers always send Origin: it must be our own origin
 * (PUBLIC_URL, or the Host the request was sent to) or one in CORS_ORIGINS. Clients that are not
 * browsers send none and are judged by their token alone.
 */
export function allowsSocketOrigin(
  origin: string | undefined,
  host: string | undefined,
  settings: CrossOrigin,
): boolean {
  if (origin === undefined) return true;
  if (settings.corsOrigins.includes('*') || settings.corsOrigins.includes(origin)) return true;
  if (settings.publicUrl !== undefined) return origin === settings.publicUrl;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** Answers preflights and adds CORS headers for CORS_ORIGINS; with none listed, nothing changes. */
export async function installCors(app: FastifyInstance, { corsOrigins }: CrossOrigin): Promise<void> {
  if (corsOrigins.length === 0) return;
  await app.register(cors, {
    origin: corsOrigins.includes('*') ? '*' : [...corsOrigins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'Range'],
    exposedHeaders: ['Retry-After', 'ETag', 'Content-Range', 'Accept-Ranges', 'Content-Length', 'WWW-Authenticate'],
    maxAge: 600,
    strictPreflight: true,
  });
}
