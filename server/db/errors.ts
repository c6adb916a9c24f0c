import { DomainError } from '../errors';

/**
 * The database cannot be reached for now (restarting, failing over, the network between): nothing
 * is wrong with the request. The API answers 503 with Retry-After; a worker keeps its job and
 * resumes it once the database answers again (jobs/runner.ts).
 */
export class DatabaseUnavailableError extends DomainError {
  constructor(cause: unknown) {
    super('unavailable', 'The database is unavailable for a moment; try again shortly', {
      cause,
      retryAfterSeconds: 5,
    });
    this.name = 'DatabaseUnavailableError';
  }
}

export function isDatabaseUnavailable(error: unknown): error is DatabaseUnavailableError {
  return error instanceof DatabaseUnavailableError;
}

/** Node's codes for a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether `error` says the connection to the database failed, rather than that the statement was
 * wrong: SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down or
 * starting up), 53300 (too many connections), a socket error, or node-postgres' own words for a
 * connection that ended or timed out.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection|the database system is (starting up|shutting down)/i.test(
    message,
  );
}
