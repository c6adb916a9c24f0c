import { resolve } from 'node:path';
import type { VerifierOptions } from '@pact-foundation/pact';
import { gitVersion, PROVIDER } from '../../../scripts/pact-setup.mjs';

/** The pact the consumer tests write, verified when no broker is configured. */
export const PACT_FILE = resolve('contracts/pacts/lectio-web-lectio-api.json');

/**
 * The consumer versions whose pacts the provider verifies: the consumers' main branch, every version
 * deployed or released to an environment, and the consumer branch named like the provider's.
 */
export const CONSUMER_VERSION_SELECTORS = [
  { mainBranch: true },
  { deployedOrReleased: true },
  { matchingBranch: true },
];

/** Work-in-progress pacts published since this date are verified too, without failing the build. */
export const WIP_PACTS_SINCE = '2026-01-01';

/**
 * Where the pacts come from and where the results go. Without PACT_BROKER_BASE_URL: the pact file in
 * contracts/pacts/, nothing published. With it: the broker's pacts for lectio-api by the selectors
 * above, pending and work-in-progress pacts enabled, and, in CI (CI=true) or with
 * PACT_BROKER_PUBLISH_VERIFICATION_RESULTS=true, the results published under this checkout's commit
 * and branch (PACT_BROKER_PUBLISH_VERIFICATION_RESULTS=false keeps them unpublished).
 */
export function verifierOptions(providerBaseUrl: string, env: NodeJS.ProcessEnv = process.env): VerifierOptions {
  const base = { provider: PROVIDER, providerBaseUrl, logLevel: 'warn' as const };
  const brokerUrl = env.PACT_BROKER_BASE_URL?.trim();
  if (!brokerUrl) return { ...base, pactUrls: [PACT_FILE] };
  const { commit, branch, buildUrl } = gitVersion({ env });
  const publish =
    env.PACT_BROKER_PUBLISH_VERIFICATION_RESULTS === 'true' ||
    (env.CI === 'true' && env.PACT_BROKER_PUBLISH_VERIFICATION_RESULTS !== 'false');
  return {
    ...base,
    pactBrokerUrl: brokerUrl,
    ...(env.PACT_BROKER_TOKEN && { pactBrokerToken: env.PACT_BROKER_TOKEN }),
    ...(env.PACT_BROKER_USERNAME && {
      pactBrokerUsername: env.PACT_BROKER_USERNAME,
      pactBrokerPassword: env.PACT_BROKER_PASSWORD ?? '',
    }),
    consumerVersionSelectors: CONSUMER_VERSION_SELECTORS,
    enablePending: true,
    includeWipPactsSince: env.PACT_INCLUDE_WIP_PACTS_SINCE || WIP_PACTS_SINCE,
    providerVersion: commit,
    providerVersionBranch: branch,
    ...(buildUrl && { buildUrl }),
    publishVerificationResult: publish,
  };
}
