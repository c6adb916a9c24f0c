/** The consumer's name in the pacts: the SPA. */
export const CONSUMER: 'lectio-web';
/** The provider's name in the pacts: the API server. */
export const PROVIDER: 'lectio-api';

export interface GitVersion {
  commit: string;
  branch: string;
  buildUrl?: string;
}

/** The commit, branch and CI build URL of the checkout in `cwd` (GIT_COMMIT and GIT_BRANCH override git). */
export function gitVersion(options?: { cwd?: string; env?: NodeJS.ProcessEnv }): GitVersion;

/** Path of the `pact` binary (broker client and verifier) shipped by @pact-foundation/pact-cli. */
export function pactBinary(): string;
