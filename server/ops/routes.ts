import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import { sendError, HttpError } from '../http/errors';
import type { Metrics } from './metrics';

/**
 * Operator endpoints outside the versioned API (so not in contracts/openapi.yaml): liveness,
 * readiness and Prometheus metrics, plus the request log and request ids for every route.
 *
 * - GET /healthz: 200 while the process serves requests. No auth, no details.
 * - GET /readyz: 200 when every check passes, else 503 naming the failing parts; no auth, and
 *   no error text in the answer (it goes to the log). Reported parts (the voice server) are
 *   listed with their state but never make the process unready: the library plays without them.
 * - GET /metrics: Prometheus text; 404 unless METRICS_TOKEN (then `Authorization: Bearer`) or
 *   METRICS_PUBLIC=true.
 * - Request log: one line per request when it completes; successful reads (polling, media,
 *   probes) at debug, everything else at info; the request id (x-request-id) in each line, in
 *   the response header and in every error body (`request_id`).
 */
export interface OpsDeps {
  metrics: Metrics;
  metricsToken?: string;
  metricsPublic: boolean;
  /** Named readiness checks; each rejects (or takes longer than `checkTimeoutMs`) when its part is down. */
  checks: Record<string, () => Promise<unknown>>;
  /** Parts whose state is reported in `checks` but that do not decide readiness. */
  reported?: Record<string, () => Promise<unknown>>;
  checkTimeoutMs?: number;
}

/** A readiness check's failure that names the part's state ("full") rather than "unavailable". */
export class CheckState extends Error {
  readonly state: string;
  constructor(state: string, message: string) {
    super(message);
    this.name = 'CheckState';
    this.state = state;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Fastify's genReqId: a well-formed x-request-id from the reverse proxy, else a fresh UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Fastify's own per-request lines are off: installOps writes one line per request instead. */
export function requestLogController(): LogController {
  return new LogController({ disableRequestLogging: true });
}

const QUIET_METHODS = new Set(['GET', 'HEAD']);

/** Path parameters that are credentials (a feed's token, a link's signature): never written to a log. */
const SECRET_PARAMS: ReadonlySet<string> = new Set(['token', 'signature']);

/** A path segment (before any extension) long and random enough to be a token or a signature, not a UUID. */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{32,}$/;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request's path as the log keeps it: without the query string (media URLs carry their
 * signature there) and with every credential in the path replaced by `[secret]`: the route's
 * secret parameters, and any token-like segment (a path no route matched has no parameters).
 */
export function loggedUrl(request: Pick<FastifyRequest, 'url' | 'params'>): string {
  let url = request.url.split('?')[0] ?? '';
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (!SECRET_PARAMS.has(name) || typeof value !== 'string' || value === '') continue;
    url = url.replaceAll(encodeURIComponent(value), '[secret]').replaceAll(value, '[secret]');
  }
  return url
    .split('/')
    .map((segment) => {
      const dot = segment.indexOf('.');
      const stem = dot === -1 ? segment : segment.slice(0, dot);
      return TOKEN_LIKE.test(stem) && !UUID_LIKE.test(stem) ? `[secret]${segment.slice(stem.length)}` : segment;
    })
    .join('/');
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function withTimeout(check: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function installOps(app: FastifyInstance, deps: OpsDeps): void {
  const timeoutMs = deps.checkTimeoutMs ?? 3000;

  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('x-request-id', reply.request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    deps.metrics.observeHttp(request.method, route, reply.statusCode, seconds);
    const quiet = QUIET_METHODS.has(request.method) && reply.statusCode < 400;
    const line = {
      method: request.method,
      url: loggedUrl(request),
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      ...(request.user?.id !== undefined && { userId: request.user.id }),
    };
    if (quiet) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    const run = (entries: Record<string, () => Promise<unknown>>) =>
      Promise.all(
        Object.entries(entries).map(async ([name, check]) => {
          try {
            await withTimeout(check, timeoutMs);
            return [name, 'ok'] as const;
          } catch (err) {
            request.log.warn({ err, check: name }, 'readiness check failed');
            return [name, err instanceof CheckState ? err.state : 'unavailable'] as const;
          }
        }),
      );
    const [results, reported] = await Promise.all([run(deps.checks), run(deps.reported ?? {})]);
    const checks = { ...Object.fromEntries(results), ...Object.fromEntries(reported) };
    const failing = results.filter(([, state]) => state !== 'ok').map(([name]) => name);
    if (failing.length === 0) return { status: 'ready', checks };
    const say = (names: string[], state: string) => `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} ${state}`;
    const states = [...new Set(results.filter(([, state]) => state !== 'ok').map(([, state]) => state))];
    const detail = `Not ready: ${states
      .map((state) =>
        say(
          results.filter(([, s]) => s === state).map(([name]) => name),
          state,
        ),
      )
      .join('; ')}`;
    return reply
      .code(503)
      .send({ status: 'not_ready', failing, checks, detail, message: detail, request_id: request.id });
  });

  app.get('/metrics', async (request, reply) => {
    if (deps.metricsToken === undefined && !deps.metricsPublic) {
      return sendError(reply, new HttpError(404, 'Metrics are off: set METRICS_TOKEN or METRICS_PUBLIC=true'));
    }
    if (deps.metricsToken !== undefined && !tokenMatches(request.headers.authorization, deps.metricsToken)) {
      return sendError(reply, new HttpError(401, 'A valid metrics bearer token is required'));
    }
    const body = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(body);
  });
}
