import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pactBinary } from '../../../scripts/pact-setup.mjs';
import { freePort } from '../../support/ports';
import { TestPactBroker } from '../../support/pact-broker';
import { MESSAGES_PATH, STATE_CHANGE_PATH, startProvider } from './harness';
import { CONSUMER_VERSION_SELECTORS, PACT_FILE, WIP_PACTS_SINCE } from './verifier-options';

// The Pact Broker workflow end to end, with the real tools: `npm run pact:publish`, can-i-deploy and
// record-deployment run the Pact CLI of @pact-foundation/pact-cli, and the provider verification
// (`npm run test:pact:provider` with PACT_BROKER_BASE_URL) runs pact-js's verifier, each pointed at
// a broker started here (tests/support/pact-broker.ts) on 127.0.0.1.
const root = process.cwd();
const TOKEN = 'a-token-for-the-test-broker';
const PROVIDER_SHA = '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d';
const FEATURE = 'feature/reading-list';
const brokers: TestPactBroker[] = [];

interface Run {
  code: number;
  output: string;
}

/** The environment of a CI job: nothing of the broker, git or CI of the machine running the tests. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(VITEST|PACT_|GIT_|GITHUB_|BUILD_URL$|CI_JOB_URL$|CI$)/.test(key)) delete env[key];
  }
  return { ...env, PACT_DO_NOT_TRACK: 'true', ...extra };
}

function run(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, env: options.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** `npm run pact:<command>`: the script npm runs, run with node from `cwd`. */
const pactScript = (command: string, args: string[], env: NodeJS.ProcessEnv, cwd = root) =>
  run(process.execPath, [path.join(root, 'scripts/pact-broker.mjs'), command, ...args], { cwd, env });

/** `npm run test:pact:provider`, the provider verification, as CI runs it against a broker. */
const verifyProvider = (env: NodeJS.ProcessEnv) =>
  run(
    process.execPath,
    [
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--project',
      'pact-provider',
      'tests/pact/provider/lectio-api.provider.test.ts',
    ],
    { env },
  );

async function startBroker(): Promise<TestPactBroker> {
  const broker = await TestPactBroker.start({ token: TOKEN });
  brokers.push(broker);
  return broker;
}

const brokerEnv = (broker: TestPactBroker, extra: Record<string, string> = {}) =>
  cleanEnv({ PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_TOKEN: TOKEN, ...extra });

const git = async (cwd: string, ...args: string[]) => {
  const result = await run('git', ['-c', 'user.name=Lectio CI', '-c', 'user.email=ci@example.com', ...args], {
    cwd,
    env: cleanEnv({}),
  });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.output}`);
  return result.output.trim();
};

/** A checkout of lectio-web on a feature branch, holding the pact the consumer tests wrote. */
async function consumerCheckout(): Promise<{ dir: string; commit: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lectio-web-'));
  await git(dir, 'init', '-q', '-b', FEATURE);
  mkdirSync(path.join(dir, 'contracts/pacts'), { recursive: true });
  copyFileSync(PACT_FILE, path.join(dir, 'contracts/pacts', path.basename(PACT_FILE)));
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'The SPA’s pact');
  return { dir, commit: await git(dir, 'rev-parse', 'HEAD') };
}

const ourPact = () =>
  JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: { description: string; type?: string }[] };

/**
 * Our pact cut to what a broker's workflow needs to show: a few HTTP interactions with their
 * provider states, and every message of the voice transport. lectio-api.provider.test.ts verifies
 * every interaction of the pact; here a verification through the broker (selectors, pending, WIP,
 * results published) is the point, and verifying all of them twice more added a minute of CPU.
 */
const samplePact = () => {
  const pact = ourPact();
  const http = pact.interactions.filter((i) => i.type === 'Synchronous/HTTP').slice(0, 4);
  const messages = pact.interactions.filter((i) => i.type !== 'Synchronous/HTTP');
  return { ...pact, interactions: [...http, ...messages] };
};

/** A pact a later SPA might publish: one interaction the server honours, one it does not. */
const healthPact = (expectedVersionField: boolean) => ({
  consumer: { name: 'lectio-web' },
  provider: { name: 'lectio-api' },
  interactions: [
    {
      type: 'Synchronous/HTTP',
      key: 'health-check',
      description: 'a health check',
      request: { method: 'GET', path: '/healthz' },
      response: { status: 200, body: { content: { status: 'ok' }, contentType: 'application/json' } },
    },
    {
      type: 'Synchronous/HTTP',
      key: 'health-check-with-version',
      description: 'a health check naming the server version',
      request: { method: 'GET', path: '/healthz' },
      response: {
        status: 200,
        body: {
          content: { status: 'ok', ...(expectedVersionField && { version: '2.0.0' }) },
          contentType: 'application/json',
        },
      },
    },
  ],
  metadata: { pactSpecification: { version: '4.0' } },
});

afterEach(async () => {
  for (const broker of brokers.splice(0)) await broker.close();
});

describe('publishing, can-i-deploy and record-deployment (the Pact CLI)', () => {
  it('publishes the pact with the commit, the branch and the CI build URL, and says yes once a deployed provider verified it', async () => {
    const broker = await startBroker();
    const { dir, commit } = await consumerCheckout();
    const ci = {
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'lectio/lectio',
      GITHUB_RUN_ID: '4242',
    };
    const published = await pactScript('publish', [], brokerEnv(broker, ci), dir);
    expect(published.output).toContain(`as lectio-web ${commit} on branch ${FEATURE}`);
    expect(published.code).toBe(0);

    const [publication] = broker.requestsTo('POST', /^\/contracts\/publish$/);
    expect(publication!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const body = publication!.body as Record<string, unknown> & { contracts: Record<string, string>[] };
    expect(body).toMatchObject({
      pacticipantName: 'lectio-web',
      pacticipantVersionNumber: commit,
      branch: FEATURE,
      buildUrl: 'https://github.example/lectio/lectio/actions/runs/4242',
    });
    expect(body.contracts).toHaveLength(1);
    expect(body.contracts[0]).toMatchObject({
      consumerName: 'lectio-web',
      providerName: 'lectio-api',
      specification: 'pact',
      contentType: 'application/json',
    });
    const sent = JSON.parse(Buffer.from(body.contracts[0]!.content!, 'base64').toString('utf8')) as ReturnType<
      typeof ourPact
    >;
    const descriptions = (pact: ReturnType<typeof ourPact>) => pact.interactions.map((i) => i.description).sort();
    expect(descriptions(sent)).toEqual(descriptions(ourPact()));

    // Nothing of lectio-api is in production yet: the SPA may not go there.
    const early = await pactScript('can-i-deploy', ['--to-environment', 'production'], brokerEnv(broker), dir);
    expect(early.output).toContain('Computer says no');
    expect(early.output).toContain('There is no version of lectio-api in production');
    expect(early.code).not.toBe(0);

    // A provider build verifies this pact and is deployed: now it may.
    const [pact] = broker.pacts;
    broker.addVerification(pact!.sha, PROVIDER_SHA, 'main', true);
    const deployed = await pactScript(
      'record-deployment',
      ['--pacticipant', 'lectio-api', '--version', PROVIDER_SHA, '--environment', 'production'],
      brokerEnv(broker),
    );
    expect(deployed.code).toBe(0);
    expect(broker.deployments).toEqual([
      { pacticipant: 'lectio-api', version: PROVIDER_SHA, environment: 'production', current: true },
    ]);
    const ready = await pactScript('can-i-deploy', ['--to-environment', 'production'], brokerEnv(broker), dir);
    expect(ready.output).toContain('Computer says yes');
    expect(ready.code).toBe(0);

    // Then the SPA's own deployment is recorded under its commit.
    const recorded = await pactScript('record-deployment', ['--environment', 'production'], brokerEnv(broker), dir);
    expect(recorded.code).toBe(0);
    expect(broker.deployments.at(-1)).toEqual({
      pacticipant: 'lectio-web',
      version: commit,
      environment: 'production',
      current: true,
    });
  }, 120_000);

  it('fails with a clear message when the broker is unreachable, refuses the token, or is not named', async () => {
    const { dir } = await consumerCheckout();
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await pactScript(
      'publish',
      [],
      cleanEnv({ PACT_BROKER_BASE_URL: closed, PACT_BROKER_TOKEN: TOKEN }),
      dir,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toContain(`Cannot reach the Pact Broker at ${closed} (ECONNREFUSED)`);

    const broker = await startBroker();
    const refused = await pactScript('publish', [], brokerEnv(broker, { PACT_BROKER_TOKEN: 'not-the-token' }), dir);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`The Pact Broker at ${broker.url} refused the credentials (HTTP 401)`);
    expect(broker.requestsTo('POST', /^\/contracts\/publish$/)).toEqual([]);

    const unnamed = await pactScript('publish', [], cleanEnv({}), dir);
    expect(unnamed.code).toBe(2);
    expect(unnamed.output).toContain('PACT_BROKER_BASE_URL is not set');
  }, 60_000);
});

describe('the provider verification against a broker (npm run test:pact:provider)', () => {
  it('fetches the pacts with the selectors, pending and WIP, and publishes success under its commit and branch', async () => {
    const broker = await startBroker();
    const sample = samplePact();
    const pact = broker.addPact('lectio-web', 'b0a1c2d3', FEATURE, sample);
    const result = await verifyProvider(
      brokerEnv(broker, {
        GIT_COMMIT: PROVIDER_SHA,
        GIT_BRANCH: FEATURE,
        PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: 'true',
      }),
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('1 passed');

    const [fetched] = broker.requestsTo('POST', /^\/pacts\/provider\/lectio-api\/for-verification$/);
    expect(fetched!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(fetched!.body).toEqual({
      consumerVersionSelectors: CONSUMER_VERSION_SELECTORS,
      includePendingStatus: true,
      includeWipPactsSince: WIP_PACTS_SINCE,
      providerVersionBranch: FEATURE,
    });
    // The provider's branch is recorded for its version, then the results.
    expect(broker.versions.find((v) => v.pacticipant === 'lectio-api')).toMatchObject({
      number: PROVIDER_SHA,
      branch: FEATURE,
    });
    expect(broker.verifications).toHaveLength(1);
    const [verification] = broker.verifications;
    expect(verification).toMatchObject({ pactSha: pact.sha, providerVersion: PROVIDER_SHA, success: true });
    const results = verification!.testResults as { success: boolean }[];
    expect(sample.interactions.length).toBeGreaterThan(4);
    expect(results).toHaveLength(sample.interactions.length);
    expect(results.every((r) => r.success)).toBe(true);
  }, 180_000);

  it('fails the build and reports the failing interaction when a pact verified before breaks', async () => {
    const broker = await startBroker();
    const pact = broker.addPact('lectio-web', 'c1d2e3f4', 'main', healthPact(true));
    // An earlier provider build verified this pact: it is no longer pending.
    broker.addVerification(pact.sha, 'an-earlier-provider-build', 'main', true);
    const result = await verifyProvider(
      brokerEnv(broker, {
        GIT_COMMIT: PROVIDER_SHA,
        GIT_BRANCH: 'main',
        PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: 'true',
      }),
    );
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('a health check naming the server version');

    const verification = broker.verifications.at(-1)!;
    expect(verification).toMatchObject({ pactSha: pact.sha, providerVersion: PROVIDER_SHA, success: false });
    const results = verification.testResults as { interactionDescription?: string; success: boolean }[];
    expect(results.filter((r) => !r.success).map((r) => r.interactionDescription)).toEqual([
      'a health check naming the server version',
    ]);
  }, 180_000);

  it('does not fail the build for a pending pact, and still reports its failure', async () => {
    const broker = await startBroker();
    // Published on the main branch, never verified: pending.
    const pact = broker.addPact('lectio-web', 'd2e3f4a5', 'main', healthPact(true));
    const result = await verifyProvider(
      brokerEnv(broker, {
        GIT_COMMIT: PROVIDER_SHA,
        GIT_BRANCH: 'main',
        PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: 'true',
      }),
    );
    expect(result.output).toContain('1 passed');
    expect(result.code).toBe(0);
    expect(broker.verifications).toHaveLength(1);
    expect(broker.verifications[0]).toMatchObject({ pactSha: pact.sha, providerVersion: PROVIDER_SHA, success: false });
  }, 180_000);
});

describe('another backend verified with the standalone verifier (docs/contracts.md)', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  beforeAll(async () => {
    provider = await startProvider();
  }, 120_000);
  afterAll(async () => {
    await provider?.close();
  });

  it('verifies the pact from the broker through POST /_pact/provider-states and /_pact/messages', async () => {
    const broker = await startBroker();
    const pact = broker.addPact('lectio-web', 'e3f4a5b6', 'main', samplePact());
    const verifier = pactBinary();
    const result = await run(
      verifier,
      [
        'verifier',
        '--broker-url',
        broker.url,
        '--provider-name',
        'lectio-api',
        '--hostname',
        '127.0.0.1',
        '--port',
        String(provider.port),
        '--transports',
        `http:${provider.port}`,
        '--transports',
        `message:${provider.port}${MESSAGES_PATH}`,
        '--state-change-url',
        `${provider.url}${STATE_CHANGE_PATH}`,
        ...CONSUMER_VERSION_SELECTORS.flatMap((selector) => ['--consumer-version-selectors', JSON.stringify(selector)]),
        '--enable-pending',
        '--include-wip-pacts-since',
        WIP_PACTS_SINCE,
        '--publish',
        '--provider-version',
        PROVIDER_SHA,
        '--provider-branch',
        'main',
        '--no-colour',
      ],
      { env: brokerEnv(broker) },
    );
    expect(result.code, result.output).toBe(0);
    expect(broker.verifications).toHaveLength(1);
    expect(broker.verifications[0], result.output).toMatchObject({
      pactSha: pact.sha,
      providerVersion: PROVIDER_SHA,
      success: true,
    });
  }, 180_000);
});
