import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lectioPact } from './pact';

// The consumer tests' pact waits for its mock server's records (docs/contracts.md#the-mock-servers-late-records).
// These interactions are not part of the contract: their pact goes to a directory of its own.
const dir = mkdtempSync(join(tmpdir(), 'lectio-pact-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the consumer tests’ pact', () => {
  it('counts a request the mock server records after the test’s own code is done', async () => {
    const pact = lectioPact(dir);
    let answered: Promise<Response> | null = null;
    await pact
      .addInteraction()
      .uponReceiving('a request still under way when the test returns')
      .withRequest('GET', '/api/v1/health')
      .willRespondWith(200)
      .executeTest(async (server) => {
        // Sent, not awaited: the mock server gets it, answers and records it after this returns.
        answered = fetch(`${server.url}/api/v1/health`);
      });
    expect((await answered!).status).toBe(200);
    expect(readdirSync(dir)).toEqual(['lectio-web-lectio-api.json']);
  });

  it('still fails a test whose request never came, naming the request', async () => {
    const pact = lectioPact(dir);
    const run = pact
      .addInteraction()
      .uponReceiving('a request the test never sends')
      .withRequest('GET', '/api/v1/never-sent')
      .willRespondWith(200)
      .executeTest(async () => {});
    await expect(run).rejects.toThrow(/expected but not received[\s\S]*\/api\/v1\/never-sent/);
  });
});
