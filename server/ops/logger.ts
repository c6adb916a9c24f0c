/**
 * The log's settings, one for the API server and the worker: pino at LOG_LEVEL, with every field
 * that can hold a credential censored wherever a log line names it (a bearer token, a password,
 * a feed token, a link's signature, a one-time link's token). Request paths are cleaned before
 * they are logged (loggedUrl in ./routes.ts); this is the net under every other line.
 */
import type { FastifyServerOptions } from 'fastify';

/** Field names whose values are credentials, at the top of a log line or one or two levels down. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'password',
  'current_password',
  'new_password',
  'token',
  'access_token',
  'refresh_token',
  'signature',
  'sig',
  'secret',
  'apiKey',
  'api_key',
];

const REDACTED_PATHS = SECRET_FIELDS.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]);

/** Where log lines go instead of standard output (tests read them). */
export interface LogDestination {
  write(line: string): void;
}

export function loggerOptions(level: string, destination?: LogDestination): FastifyServerOptions['logger'] {
  if (level === 'silent' && destination === undefined) return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[secret]' },
    ...(destination !== undefined && { stream: destination }),
  };
}
