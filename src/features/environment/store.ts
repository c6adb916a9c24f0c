import { proxy } from 'valtio';
import { getEnvironment } from '../../api/gen/endpoints/environment/environment';
import type { EnvironmentInfoOutput } from '../../api/gen/model';

/** The product's production host: when the environment call fails there, signup stays off. */
export const PRODUCTION_HOST = 'lectio.app';

export interface EnvironmentState {
  info: EnvironmentInfoOutput | null;
  /** 'server' once GET /environment succeeded (then it is cached), 'fallback' after a failure. */
  source: 'server' | 'fallback' | null;
}

const initialState: EnvironmentState = { info: null, source: null };

export const state = proxy<EnvironmentState>(structuredClone(initialState));

export function resetEnvironment(): void {
  Object.assign(state, structuredClone(initialState));
  inflight = null;
}

/** docs/product.md#environment: production on the production host, else dev with signup and debug on. */
export function fallbackEnvironment(host: string): EnvironmentInfoOutput {
  const production = host === PRODUCTION_HOST;
  return {
    environment: production ? 'production' : 'dev',
    features: { signup_enabled: !production, debug_mode: !production, demo_mode: false },
  };
}

let inflight: Promise<EnvironmentInfoOutput> | null = null;

export interface LoadEnvironmentOptions {
  host?: string;
  log?: (message: string, error: unknown) => void;
}

/** GET /api/v1/environment once; the first success is cached, a failure logs and falls back. */
export function loadEnvironment({
  host = globalThis.location?.hostname ?? '',
  log = (message, error) => console.error(message, error),
}: LoadEnvironmentOptions = {}): Promise<EnvironmentInfoOutput> {
  if (state.source === 'server' && state.info) return Promise.resolve(state.info);
  inflight ??= getEnvironment()
    .then((info) => {
      Object.assign(state, { info, source: 'server' });
      return info as EnvironmentInfoOutput;
    })
    .catch((error: unknown) => {
      log('Failed to fetch environment info, using the fallback', error);
      const info = fallbackEnvironment(host);
      Object.assign(state, { info, source: 'fallback' });
      return info;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}
