import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { describeWait } from '../auth/service';
import { HttpError } from './errors';

/**
 * Installs @fastify/rate-limit for routes that ask for it (`config.rateLimit`); nothing is
 * limited globally. Clients are told how long to wait in the contract's error shape, with
 * Retry-After. It keys on request.ip, so behind a reverse proxy set TRUST_PROXY.
 */
export async function installRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const wait = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(context.statusCode, `Too many requests. Try again in ${describeWait(wait)}.`, {
        headers: { 'retry-after': String(wait) },
      });
    },
  });
}
