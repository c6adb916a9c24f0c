import type { ZodType } from 'zod';
import { resolveSchema } from './lazySchema';

/**
 * The one fetch every generated hook goes through (Orval's mutator). It adds the bearer token,
 * parses successful bodies with the generated zod schema, turns error answers into ApiError and
 * reports any 401 on an authenticated request so the app can clear the session.
 */
export type ApiFetchOptions = RequestInit & { schema?: ZodType };

export interface ApiConfig {
  /** Prefix for every path, '' when the API shares the SPA's origin. */
  baseUrl: string;
  getToken: () => string | null;
  onUnauthorized: () => void;
  fetch: typeof fetch;
}

const config: ApiConfig = {
  baseUrl: '',
  getToken: () => null,
  onUnauthorized: () => {},
  fetch: (input, init) => globalThis.fetch(input, init),
};

export function configureApi(patch: Partial<ApiConfig>): void {
  Object.assign(config, patch);
}

export function apiUrl(path: string): string {
  return `${config.baseUrl}${path}`;
}

/** An error answer from the API (status > 0) or a failure to reach it (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's own explanation (`message`, else `detail`), when it gave one. */
  readonly serverMessage: string | undefined;
  readonly body: unknown;

  constructor(status: number, serverMessage: string | undefined, body: unknown) {
    super(serverMessage ?? (status ? `Request failed with status ${status}` : 'The server could not be reached'));
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

function serverMessageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { message, detail } = body as { message?: unknown; detail?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof detail === 'string' && detail) return detail;
  }
  return undefined;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return null;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) return res.json().catch(() => undefined);
  if (type.startsWith('text/') || type.includes('mpegurl')) return res.text();
  return res.blob();
}

export const apiFetch = async <T>(path: string, options: ApiFetchOptions = {}): Promise<T> => {
  const { schema, ...init } = options;
  const headers = new Headers(init.headers);
  const token = config.getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');

  // The schema (in production a chunk loaded on demand) loads while the request is under way.
  const validator = schema ? resolveSchema(schema) : undefined;
  validator?.catch(() => undefined); // reported below, if the answer needs it
  let res: Response;
  try {
    res = await config.fetch(apiUrl(path), { ...init, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, undefined, error);
  }
  const body = await readBody(res);
  if (!res.ok) {
    if (res.status === 401 && token) config.onUnauthorized();
    throw new ApiError(res.status, serverMessageOf(body), body);
  }
  // 204 has no body by definition (a deleted job): nothing to parse.
  if (res.status === 204 || res.status === 205) return body as T;
  return (validator ? (await validator).parse(body) : body) as T;
};

/**
 * The text to show for a failed call: the server's message when it sent one, the schema's own
 * message when an answer did not match the contract, else the caller's default.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  if (isZodError(error)) return error.issues[0]?.message ?? 'Invalid input';
  return fallback;
}

/** A zod validation error, recognised without importing zod (which loads on demand). */
function isZodError(error: unknown): error is { issues: { message: string }[] } {
  return error instanceof Error && error.name === 'ZodError' && Array.isArray((error as { issues?: unknown }).issues);
}
