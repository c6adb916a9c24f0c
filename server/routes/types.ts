import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from '../http/zod';

/** A group of API routes: a Fastify plugin whose `schema` entries are the generated zod schemas. */
export type RoutePlugin<Options extends Record<string, unknown> = Record<never, never>> = FastifyPluginAsync<
  Options,
  RawServerDefault,
  ZodTypeProvider
>;
