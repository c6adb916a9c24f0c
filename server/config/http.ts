import { ConfigError, integer, isAddressOrCidr, list, section } from './declare';

/** The HTTP edge: which proxies are believed, and how long a slow client may take (docs/operations.md). */
export const httpSection = section({
  title: 'HTTP',
  variables: {
    trustProxy: list(
      'TRUST_PROXY',
      {
        shown: '(off)',
        bad: (entry) => !isAddressOrCidr(entry),
        problem: (bad) =>
          `TRUST_PROXY must be a comma-separated list of IP addresses or CIDRs such as 10.0.0.0/8 (not ${bad})`,
      },
      "Comma-separated addresses or CIDRs of reverse proxies (e.g. '127.0.0.1,10.0.0.0/8'). Requests from them are attributed to the client address in X-Forwarded-For, so throttles and rate limits apply per real client; anyone else's X-Forwarded-For is ignored.",
    ),
    httpHeadersTimeoutSeconds: integer(
      'HTTP_HEADERS_TIMEOUT_SECONDS',
      { min: 1, max: 600, default: 20 },
      'A client must send its complete request headers within this many seconds (1-600, at most HTTP_REQUEST_TIMEOUT_SECONDS).',
    ),
    httpRequestTimeoutSeconds: integer(
      'HTTP_REQUEST_TIMEOUT_SECONDS',
      { min: 1, max: 3600, default: 120 },
      'A client must send its whole request, body included, within this many seconds (1-3600); slower ones get 408 and are disconnected. Bounds slow uploads.',
    ),
    httpIdleTimeoutSeconds: integer(
      'HTTP_IDLE_TIMEOUT_SECONDS',
      { min: 1, max: 3600, default: 20 },
      'A connection on which nothing is sent or received for this many seconds is closed (1-3600): a stalled request body, a download the client stopped reading, or an idle keep-alive connection. Websockets, and a request the server is still working on, are not affected.',
    ),
  },
  derive: (vars) => {
    if (vars.httpHeadersTimeoutSeconds > vars.httpRequestTimeoutSeconds) {
      throw new ConfigError(
        `HTTP_HEADERS_TIMEOUT_SECONDS (${vars.httpHeadersTimeoutSeconds}) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${vars.httpRequestTimeoutSeconds})`,
      );
    }
    return {};
  },
});
