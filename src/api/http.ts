import type { ZodType } from 'zod';
import { ApiError } from './errors';
import { resolveSchema } from './lazySchema';

/**
 * The one fetch every generated hook goes through (Orval's mutator). It adds the bearer token,
 * parses successful bodies with the generated zod schema, turns error answers into ApiError (errors.ts) and
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
    throw new ApiError(0, undefined, { cause: error });
  }
  const body = await readBody(res);
  if (!res.ok) {
    if (res.status === 401 && token) config.onUnauthorized();
    throw new ApiError(res.status, body, { requestId: res.headers.get('x-request-id') });
  }
  // 204 has no body by definition (a deleted job): nothing to parse.
  if (res.status === 204 || res.status === 205) return body as T;
  return (validator ? (await validator).parse(body) : body) as T;
};
