import { resolve } from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { configureApi } from '../../../src/api/http';

export const pactDir = resolve('contracts/pacts');

export function lectioPact() {
  return new PactV4({ consumer: 'lectio-web', provider: 'lectio-api', dir: pactDir, logLevel: 'warn' });
}

/** Point the SPA's real client (src/api/http.ts, used by every generated call) at the mock server. */
export function useMockServer(url: string, token: string | null = null, onUnauthorized = () => {}) {
  configureApi({ baseUrl: url, getToken: () => token, onUnauthorized });
}

export const isoTimestamp = (example = '2026-11-22T16:00:00.000Z') =>
  MatchersV3.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/, example);

export const errorBody = (detail: string) => ({
  detail: MatchersV3.string(detail),
  message: MatchersV3.string(detail),
});
