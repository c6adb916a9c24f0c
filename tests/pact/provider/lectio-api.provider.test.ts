import { Verifier } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProvider, type ProviderHarness } from './harness';
import { verifierOptions } from './verifier-options';

// Every interaction of the pact (HTTP requests and the voice transport's messages) replayed against
// the real server on a real, fresh database. The pact comes from contracts/pacts/, or from the Pact
// Broker when PACT_BROKER_BASE_URL is set (verifier-options.ts, docs/contracts.md).
let provider: ProviderHarness;

beforeAll(async () => {
  provider = await startProvider();
});

afterAll(async () => {
  await provider?.close();
});

describe('lectio-api honours the pacts of lectio-web', () => {
  it('verifies every interaction against the real server', async () => {
    const output = await new Verifier({
      ...verifierOptions(provider.url),
      stateHandlers: provider.stateHandlers,
      messageProviders: provider.messageProviders,
    }).verifyProvider();
    expect(output).toBeTruthy();
  });
});
