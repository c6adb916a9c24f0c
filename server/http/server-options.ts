import type { ServerOptions } from 'node:http';
import type { Config } from '../config';

/**
 * Options of the HTTP server itself: which proxies to believe, and how long a client may take.
 *
 * - headersTimeout: complete headers within HTTP_HEADERS_TIMEOUT_SECONDS, or 408 and closed.
 * - requestTimeout: the whole request, body included, within HTTP_REQUEST_TIMEOUT_SECONDS, or 408.
 * - connectionTimeout (socket idle) and keepAliveTimeout: a connection silent for
 *   HTTP_IDLE_TIMEOUT_SECONDS is closed, which ends a stalled body long before the request timeout.
 *   Upgraded websocket connections are exempt (ws clears the socket timeout).
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
