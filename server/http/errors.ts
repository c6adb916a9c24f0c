import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../errors';

export interface FieldError {
  field: string;
  message: string;
}

/** An error answer decided by the HTTP layer. `detail` is shown to the user as is. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;

  constructor(
    statusCode: number,
    detail: string,
    options: { headers?: Record<string, string>; errors?: FieldError[] } = {},
  ) {
    super(detail);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }
}

/** The one error shape of the contract: `message` repeats `detail` so any client shows the reason. */
export interface ErrorBody {
  detail: string;
  message: string;
  errors?: FieldError[];
  /** The request's id (also the x-request-id header and the log's reqId). */
  request_id?: string;
}

export function errorBody(detail: string, errors?: FieldError[]): ErrorBody {
  return errors === undefined ? { detail, message: detail } : { detail, message: detail, errors };
}

/** The one place a domain error's kind becomes an HTTP status (docs/data-model.md lists them). */
export const STATUS_BY_KIND: Readonly<Record<DomainErrorKind, number>> = {
  malformed: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  quota_exceeded: 413,
  unsupported: 415,
  invalid: 422,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
  upstream_timeout: 504,
  insufficient_storage: 507,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Read by the error handler: a body over the route's bodyLimit is answered in these words. */
    bodyTooLargeMessage?: string;
  }
}

function fromDomainError(error: DomainError): HttpError {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return new HttpError(STATUS_BY_KIND[error.kind], error.message, { headers });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Fastify's own errors (body parsing, content types) in words a client developer can act on. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): HttpError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpError(400, 'Request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'Request body is empty; send a JSON object');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(
        413,
        request.routeOptions.config.bodyTooLargeMessage ??
          `Request body is too large (the limit is ${formatBytes(request.routeOptions.bodyLimit ?? 1048576)})`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(
        415,
        `Unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}; send application/json`,
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'Content-Length does not match the request body');
    default:
      return null;
  }
}

function toHttpError(error: unknown, request: FastifyRequest): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  const fastifyError = error as FastifyError;
  const known = fromFastifyError(fastifyError, request);
  if (known !== null) return known;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, fastifyError.message || 'Bad request');
  }
  return new HttpError(500, 'Internal server error');
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  const headers = { ...error.headers };
  if (error.statusCode === 401) headers['www-authenticate'] ??= 'Bearer';
  return reply
    .code(error.statusCode)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({ ...errorBody(error.message, error.errors), request_id: reply.request.id });
}

/**
 * Every error, from the domain, the routes or Fastify itself, answers `{detail, message,
 * request_id}`. Installed once, on the app (app.ts); no plugin installs another.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const httpError = toHttpError(error, request);
    if (httpError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, httpError);
  });
}
