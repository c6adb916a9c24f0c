// What the Pact tooling shares: the pacticipants' names, what a Pact Broker knows a build by (the git
// commit: the version of lectio-web as a consumer and of lectio-api as a provider; the git branch;
// in CI, the URL of the build) and where the Pact CLI's binary is. Used by `npm run pact:publish`,
// `pact:can-i-deploy`, `pact:record-deployment` (scripts/pact-broker.mjs) and by the provider
// verification when it publishes its results (tests/pact/provider/).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

export const CONSUMER = 'lectio-web';
export const PROVIDER = 'lectio-api';

function git(cwd, args) {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.error) throw new Error(`git ${args.join(' ')} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `git ${args.join(' ')} failed in ${cwd}: ${(result.stderr || '').trim() || `exit ${result.status}`}`,
    );
  }
  return result.stdout.trim();
}

/** The URL of the CI build that runs this, when the CI says it: Jenkins/generic, GitHub Actions, GitLab. */
function buildUrlFrom(env) {
  if (env.BUILD_URL) return env.BUILD_URL;
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID) {
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
  }
  return env.CI_JOB_URL || undefined;
}

/**
 * The commit, branch and build URL of the checkout in `cwd`. GIT_COMMIT and GIT_BRANCH override git
 * (a CI that checks out a merge commit or a detached HEAD says which ones it builds); on GitHub
 * Actions a pull request's branch is GITHUB_HEAD_REF. A detached HEAD with no branch given is an
 * error: a version without its branch cannot be selected by the provider's selectors.
 */
export function gitVersion({ cwd = process.cwd(), env = process.env } = {}) {
  const commit = env.GIT_COMMIT || git(cwd, ['rev-parse', 'HEAD']);
  let branch = env.GIT_BRANCH || env.GITHUB_HEAD_REF || '';
  if (!branch) {
    const current = git(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']);
    branch = current !== 'HEAD' ? current : env.GITHUB_REF_TYPE === 'branch' ? env.GITHUB_REF_NAME || '' : '';
  }
  if (!branch) {
    throw new Error(
      'The checkout is on a detached HEAD and no branch is given: set GIT_BRANCH to the branch this commit belongs to.',
    );
  }
  const buildUrl = buildUrlFrom(env);
  return { commit, branch, ...(buildUrl && { buildUrl }) };
}

/** The `pact` binary (broker client and verifier) shipped by the npm package @pact-foundation/pact-cli. */
export function pactBinary() {
  const require = createRequire(import.meta.url);
  const { standalone } = require('@pact-foundation/pact-cli/src/pact-standalone');
  return standalone().pactFullPath;
}
