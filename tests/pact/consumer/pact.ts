import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { makeConsumerPact } from '@pact-foundation/pact-core';
import { configureApi } from '../../../src/api/http';

export const pactDir = resolve('contracts/pacts');

/**
 * The pact the consumer tests add their interactions to (written into `dir`). Its HTTP tests wait,
 * once their own code is done, until the mock server has recorded every request it answered
 * (docs/contracts.md#the-mock-servers-late-records).
 */
export function lectioPact(dir = pactDir): PactV4 {
  return waitingForRecords(new PactV4({ consumer: 'lectio-web', provider: 'lectio-api', dir, logLevel: 'warn' }));
}

/** How long a test whose requests never all arrived waits before pact reports which are missing. */
const RECORD_DEADLINE_MS = 5_000;
const RECORD_POLL_MS = 5;

/** Any handle of the Pact core library asks its mock servers by port. */
let core: ReturnType<typeof makeConsumerPact> | null = null;

async function answersRecorded(port: number): Promise<void> {
  core ??= makeConsumerPact('lectio-web', 'lectio-api', undefined, 'warn');
  const deadline = Date.now() + RECORD_DEADLINE_MS;
  while (!core.mockServerMatchedSuccessfully(port) && Date.now() < deadline) await sleep(RECORD_POLL_MS);
}

const isMockServer = (value: unknown): value is { port: number } =>
  typeof value === 'object' && value !== null && typeof (value as { port?: unknown }).port === 'number';

/**
 * The builder with every step of its chain wrapped alike, so that `executeTest` runs the test, then
 * waits for the mock server's records (message interactions have no mock server: nothing to wait for).
 */
function waitingForRecords<T extends object>(builder: T): T {
  return new Proxy(builder, {
    get(target, key) {
      const member: unknown = Reflect.get(target, key, target);
      if (typeof member !== 'function') return member;
      const method = member as (...args: unknown[]) => unknown;
      if (key === 'executeTest') {
        return (testFn: (server: unknown) => unknown) =>
          method.call(target, async (server: unknown) => {
            const result = await testFn(server);
            if (isMockServer(server)) await answersRecorded(server.port);
            return result;
          });
      }
      return (...args: unknown[]) => {
        const next = method.apply(target, args);
        return typeof next === 'object' && next !== null && !(next instanceof Promise) ? waitingForRecords(next) : next;
      };
    },
  });
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
