import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Options of the HTTP server itself: which proxies to believe, and how long a client may take.
 *
 * - headersTimeout: complete headers within HTTP_HEADERS_TIMEOUT_SECONDS, or 408 and closed.
 * - requestTimeout: the whole request, body included, within HTTP_REQUEST_TIMEOUT_SECONDS, or 408.
 * - connectionTimeout (socket idle) and keepAliveTimeout: a connection silent for
 *   HTTP_IDLE_TIMEOUT_SECONDS is closed, which ends a stalled body long before the request timeout.
 *   Upgraded websocket connections are exempt (ws clears the socket timeout). So is a request the
 *   server is still working on (idleWhileWorking below).
 * Node checks the headers and request timeouts on an interval (30 s by default); a shorter one
 * enforces them close to their deadline.
 */
export function serverOptions(config: Config): {
  trustProxy?: string[];
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  const headersMs = config.httpHeadersTimeoutSeconds * 1000;
  const requestMs = config.httpRequestTimeoutSeconds * 1000;
  const idleMs = config.httpIdleTimeoutSeconds * 1000;
  return {
    ...(config.trustProxy.length > 0 && { trustProxy: config.trustProxy }),
    connectionTimeout: idleMs,
    keepAliveTimeout: idleMs,
    requestTimeout: requestMs,
    http: {
      headersTimeout: headersMs,
      connectionsCheckingInterval: Math.min(5000, Math.max(250, Math.floor(headersMs / 4))),
    },
  };
}

/**
 * The idle timeout is for clients that stop sending or reading, not for the server's own work: a
 * request that has arrived whole and whose answer has not started (a 9 MB page or a 2,000-page PDF
 * being read in a worker thread can take longer than HTTP_IDLE_TIMEOUT_SECONDS on a busy machine)
 * keeps its connection, so the client gets its answer instead of a connection closed under it.
 * A body that stalls, a client that stops reading a download and a silent kept-alive connection
 * are still closed when the timeout fires (Node destroys the socket when nobody handles 'timeout').
 */
export function idleWhileWorking(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.on('timeout', (socket: Socket) => {
      if (request.raw.complete && !reply.raw.headersSent) return;
      socket.destroy();
    });
  });
}
