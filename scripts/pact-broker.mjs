// `npm run pact:publish`, `npm run pact:can-i-deploy` and `npm run pact:record-deployment`: the Pact
// Broker side of the contracts (docs/contracts.md). Each runs the Pact CLI that the npm package
// @pact-foundation/pact-cli ships as a binary (nothing is downloaded), with the version, branch and
// build URL of this checkout (scripts/pact-setup.mjs). The broker is PACT_BROKER_BASE_URL, with
// PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD, which the CLI reads itself.
//
//   npm run pact:publish                                  publish contracts/pacts/ as lectio-web
//   npm run pact:can-i-deploy -- --to-environment production
//   npm run pact:record-deployment -- --environment production
//
// can-i-deploy and record-deployment speak for lectio-web at this commit unless `--pacticipant`
// is given (e.g. `-- --pacticipant lectio-api --version <sha> --environment production` for the server);
// any other argument is passed on to the CLI.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { CONSUMER, gitVersion, pactBinary } from './pact-setup.mjs';

const PACT_DIR = 'contracts/pacts';
const REACH_TIMEOUT_MS = 15_000;

class UsageError extends Error {}

function brokerSettings(env) {
  const baseUrl = (env.PACT_BROKER_BASE_URL ?? '').trim();
  if (!baseUrl) throw new UsageError('PACT_BROKER_BASE_URL is not set: say which Pact Broker to talk to.');
  let url;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`PACT_BROKER_BASE_URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`PACT_BROKER_BASE_URL must be an http(s) URL, not ${url.protocol}`);
  }
  const headers = { accept: 'application/hal+json, application/json' };
  if (env.PACT_BROKER_TOKEN) headers.authorization = `Bearer ${env.PACT_BROKER_TOKEN}`;
  else if (env.PACT_BROKER_USERNAME) {
    const pair = `${env.PACT_BROKER_USERNAME}:${env.PACT_BROKER_PASSWORD ?? ''}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), headers };
}

/**
 * Reads the broker's index first, so "unreachable" and "refused" are said in plain words before the
 * CLI runs (the CLI would retry an unreachable broker for minutes, then print a Rust error).
 */
async function checkBroker({ baseUrl, headers }) {
  let response;
  try {
    response = await fetch(`${baseUrl}/`, { headers, signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
    throw new Error(`Cannot reach the Pact Broker at ${baseUrl} (${cause}). Is PACT_BROKER_BASE_URL right?`, {
      cause: error,
    });
  }
  await response.arrayBuffer();
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `The Pact Broker at ${baseUrl} refused the credentials (HTTP ${response.status}): set PACT_BROKER_TOKEN, ` +
        'or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD, to an account that may publish and read.',
    );
  }
  if (!response.ok) throw new Error(`The Pact Broker at ${baseUrl} answered HTTP ${response.status} to its index.`);
}

const has = (args, ...names) => args.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));

function commandLine(command, extra, cwd, env) {
  switch (command) {
    case 'publish': {
      const files = (() => {
        try {
          return readdirSync(path.resolve(cwd, PACT_DIR)).filter((name) => name.endsWith('.json'));
        } catch {
          return [];
        }
      })();
      if (!files.length) {
        throw new UsageError(`No pact in ${PACT_DIR}/: run \`npm run test:pact:consumer\` first, it writes them.`);
      }
      const { commit, branch, buildUrl } = gitVersion({ cwd, env });
      const note = `Publishing ${files.join(', ')} as ${CONSUMER} ${commit} on branch ${branch}`;
      return [
        note,
        [
          'broker',
          'publish',
          PACT_DIR,
          '--consumer-app-version',
          commit,
          '--branch',
          branch,
          ...(buildUrl ? ['--build-url', buildUrl] : []),
          ...extra,
        ],
      ];
    }
    case 'can-i-deploy': {
      if (!has(extra, '--to-environment', '--to')) {
        throw new UsageError('Say where to: npm run pact:can-i-deploy -- --to-environment production');
      }
      const self = has(extra, '--pacticipant', '-a')
        ? []
        : ['--pacticipant', CONSUMER, '--version', gitVersion({ cwd, env }).commit];
      return [null, ['broker', 'can-i-deploy', ...self, ...extra]];
    }
    case 'record-deployment': {
      if (!has(extra, '--environment')) {
        throw new UsageError('Say which environment: npm run pact:record-deployment -- --environment production');
      }
      const self = has(extra, '--pacticipant', '-a')
        ? []
        : ['--pacticipant', CONSUMER, '--version', gitVersion({ cwd, env }).commit];
      return [null, ['broker', 'record-deployment', ...self, ...extra]];
    }
    default:
      throw new UsageError(
        `Unknown command ${JSON.stringify(command)}: use publish, can-i-deploy or record-deployment.`,
      );
  }
}

function run(binary, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const [command, ...extra] = process.argv.slice(2);
  const cwd = process.cwd();
  // The CLI reads PACT_BROKER_BASE_URL and the credentials from the environment itself.
  const env = { ...process.env, PACT_DO_NOT_TRACK: 'true' };
  const broker = brokerSettings(env);
  const [note, args] = commandLine(command, extra, cwd, env);
  await checkBroker(broker);
  if (note) console.log(note);
  const status = await run(pactBinary(), args, env);
  if (status !== 0) {
    console.error(`\nnpm run pact:${command} failed: the Pact CLI exited with ${status} (its reason is above).`);
  }
  return status;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(`npm run pact:${process.argv[2] ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
