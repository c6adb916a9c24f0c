import { useEffect } from 'react';
import { useGetEnvironment } from '../../api/gen/endpoints/environment';
import type { EnvironmentInfoOutput } from '../../api/gen/model';

/** The product's production host: when the environment call fails there, signup stays off. */
export const PRODUCTION_HOST = 'lectio.app';

/** When GET /environment fails: production on the production host, else dev with signup and debug on. */
export function fallbackEnvironment(host: string): EnvironmentInfoOutput {
  const production = host === PRODUCTION_HOST;
  return {
    environment: production ? 'production' : 'dev',
    features: { signup_enabled: !production, debug_mode: !production, demo_mode: false },
  };
}

export interface EnvironmentOptions {
  host?: string;
  log?: (message: string, error: unknown) => void;
}

/**
 * The environment info (null until known), a React Query query of GET /environment. A success is
 * kept for the page's life; a failure is logged and answered with the fallback, and is not kept:
 * the next screen that asks tries the server again.
 */
export function useEnvironment({
  host = globalThis.location?.hostname ?? '',
  log = (message, error) => console.error(message, error),
}: EnvironmentOptions = {}): EnvironmentInfoOutput | null {
  const query = useGetEnvironment({ query: { staleTime: Infinity, gcTime: Infinity, retry: false } });
  const { error } = query;
  useEffect(() => {
    if (error) log('Failed to fetch environment info, using the fallback', error);
    // The logger is the caller's; a new function each render must not log again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);
  if (query.data) return query.data;
  return query.isError ? fallbackEnvironment(host) : null;
}
