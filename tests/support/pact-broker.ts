/**
 * FOR TESTS: a Pact Broker on 127.0.0.1 speaking the part of the broker's HAL API that the Pact CLI
 * and the Pact verifier use (docs/contracts.md): the index, publish-contracts, pacts-for-verification
 * (consumer version selectors, pending and work-in-progress pacts), each pact's own links, provider
 * branch versions, verification results, pacticipant versions with their record-deployment links,
 * and the matrix that can-i-deploy reads. It keeps everything in memory and records every request,
 * so a test can see what the real tools sent.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

interface Version {
  pacticipant: string;
  number: string;
  branch?: string;
  buildUrl?: string;
  order: number;
}

export interface StoredPact {
  sha: string;
  consumer: string;
  provider: string;
  consumerVersion: string;
  content: Record<string, unknown>;
  order: number;
  createdAt: string;
}

export interface Verification {
  id: number;
  pactSha: string;
  providerVersion: string;
  success: boolean;
  testResults: unknown;
  buildUrl?: string;
  body: Record<string, unknown>;
}

interface Deployment {
  pacticipant: string;
  version: string;
  environment: string;
  current: boolean;
}

interface Selector {
  mainBranch?: boolean;
  branch?: string;
  matchingBranch?: boolean;
  deployedOrReleased?: boolean;
  deployed?: boolean;
  released?: boolean;
  environment?: string;
  latest?: boolean;
  consumer?: string;
}

export interface PactBrokerOptions {
  /** Requests must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** The branch each pacticipant calls its main one. */
  mainBranch?: string;
  environments?: string[];
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`HTTP ${status}`);
  }
}

const enc = encodeURIComponent;

export class TestPactBroker {
  readonly requests: RecordedRequest[] = [];
  readonly versions: Version[] = [];
  readonly pacts: StoredPact[] = [];
  readonly verifications: Verification[] = [];
  readonly deployments: Deployment[] = [];
  readonly environments: { uuid: string; name: string }[];
  private counter = 0;
  private readonly mainBranch: string;

  private constructor(
    private readonly server: Server,
    private readonly options: PactBrokerOptions,
  ) {
    this.mainBranch = options.mainBranch ?? 'main';
    this.environments = (options.environments ?? ['production']).map((name) => ({ uuid: randomUUID(), name }));
  }

  static async start(options: PactBrokerOptions = {}): Promise<TestPactBroker> {
    const server = createServer();
    const broker = new TestPactBroker(server, options);
    server.on('request', (req, res) => void broker.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return broker;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  requestsTo(method: string, pattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pattern.test(r.path));
  }

  // --- state a test can set up directly ---------------------------------------------------------

  version(pacticipant: string, number: string, branch?: string, buildUrl?: string): Version {
    let found = this.versions.find((v) => v.pacticipant === pacticipant && v.number === number);
    if (!found) {
      found = { pacticipant, number, order: ++this.counter };
      this.versions.push(found);
    }
    if (branch) found.branch = branch;
    if (buildUrl) found.buildUrl = buildUrl;
    return found;
  }

  addPact(consumer: string, consumerVersion: string, branch: string, content: Record<string, unknown>): StoredPact {
    this.version(consumer, consumerVersion, branch);
    const provider = (content.provider as { name: string }).name;
    const { _links: _ignored, ...rest } = content;
    const sha = createHash('sha1').update(JSON.stringify(rest)).digest('hex');
    const pact: StoredPact = {
      sha,
      consumer,
      provider,
      consumerVersion,
      content: rest,
      order: ++this.counter,
      createdAt: new Date().toISOString(),
    };
    this.pacts.push(pact);
    return pact;
  }

  addVerification(pactSha: string, providerVersion: string, providerBranch: string, success: boolean): Verification {
    const pact = this.pacts.find((p) => p.sha === pactSha);
    if (!pact) throw new Error(`no pact ${pactSha}`);
    this.version(pact.provider, providerVersion, providerBranch);
    const verification: Verification = {
      id: ++this.counter,
      pactSha,
      providerVersion,
      success,
      testResults: [],
      body: {},
    };
    this.verifications.push(verification);
    return verification;
  }

  deploy(pacticipant: string, version: string, environment: string): void {
    for (const d of this.deployments)
      if (d.pacticipant === pacticipant && d.environment === environment) d.current = false;
    this.deployments.push({ pacticipant, version, environment, current: true });
  }

  // --- HTTP ------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
    try {
      if (this.options.token && req.headers.authorization !== `Bearer ${this.options.token}`) {
        throw new HttpError(401, { error: 'Unauthorized' });
      }
      const [status, answer] = this.route(method, url, body);
      res.writeHead(status, { 'content-type': 'application/hal+json;charset=utf-8' });
      res.end(JSON.stringify(answer));
    } catch (error) {
      const [status, answer] =
        error instanceof HttpError ? [error.status, error.body] : [500, { error: String(error) }];
      res.writeHead(status, { 'content-type': 'application/hal+json;charset=utf-8' });
      res.end(JSON.stringify(answer));
    }
  }

  private route(method: string, url: URL, body: unknown): [number, unknown] {
    const path = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const is = (m: string, ...shape: (string | null)[]) =>
      method === m && path.length === shape.length && shape.every((part, i) => part === null || part === path[i]);

    if (is('GET')) return [200, this.index()];
    if (is('POST', 'contracts', 'publish')) return this.publish(body as Record<string, unknown>);
    if (is('GET', 'pacts', 'provider', null, 'for-verification'))
      return [200, { _links: { self: { href: url.href, title: 'Pacts to be verified' } } }];
    if (is('POST', 'pacts', 'provider', null, 'for-verification'))
      return [200, this.forVerification(path[2]!, body as Record<string, unknown>)];
    if (is('GET', 'pacts', 'provider', null, 'consumer', null, 'pact-version', null)) return [200, this.pact(path[6]!)];
    if (is('POST', 'pacts', 'provider', null, 'consumer', null, 'pact-version', null, 'verification-results'))
      return this.verified(path[6]!, body as Record<string, unknown>);
    if (is('GET', 'pacticipants', null)) return [200, this.pacticipant(path[1]!)];
    if (is('PUT', 'pacticipants', null, 'branches', null, 'versions', null)) {
      const version = this.version(path[1]!, path[5]!, path[3]!);
      return [200, { number: version.number, branch: version.branch }];
    }
    if (is('GET', 'pacticipants', null, 'versions', null)) return [200, this.pacticipantVersion(path[1]!, path[3]!)];
    if (is('POST', 'pacticipants', null, 'versions', null, 'deployed-versions', 'environment', null))
      return this.recordDeployment(path[1]!, path[3]!, path[6]!);
    if (is('GET', 'matrix')) return [200, this.matrix(url.searchParams)];
    throw new HttpError(404, { error: `No route for ${method} ${url.pathname}` });
  }

  private index() {
    const base = this.url;
    return {
      _links: {
        self: { href: base, title: 'Index' },
        'pb:publish-contracts': { href: `${base}/contracts/publish`, title: 'Publish contracts' },
        'pb:provider-pacts-for-verification': {
          href: `${base}/pacts/provider/{provider}/for-verification`,
          title: 'Pact versions to be verified for the specified provider',
          templated: true,
        },
        'pb:pacticipant': { href: `${base}/pacticipants/{pacticipant}`, templated: true },
        'pb:pacticipant-version': {
          href: `${base}/pacticipants/{pacticipant}/versions/{version}`,
          templated: true,
        },
        'pb:environments': { href: `${base}/environments` },
      },
    };
  }

  private publish(body: Record<string, unknown>): [number, unknown] {
    const errors: Record<string, string[]> = {};
    const name = body?.pacticipantName;
    const number = body?.pacticipantVersionNumber;
    const contracts = body?.contracts;
    if (typeof name !== 'string' || !name) errors.pacticipantName = ['is missing'];
    if (typeof number !== 'string' || !number) errors.pacticipantVersionNumber = ['is missing'];
    if (!Array.isArray(contracts) || !contracts.length) errors.contracts = ['is missing'];
    if (Object.keys(errors).length) throw new HttpError(400, { errors });
    const branch = typeof body.branch === 'string' ? body.branch : undefined;
    const buildUrl = typeof body.buildUrl === 'string' ? body.buildUrl : undefined;
    this.version(name as string, number as string, branch, buildUrl);
    const links: { href: string; name: string; title: string }[] = [];
    const notices = [{ type: 'debug', text: `Created ${name} version ${number} with branch ${branch ?? '(none)'}` }];
    for (const contract of contracts as Record<string, unknown>[]) {
      if (contract.specification !== 'pact' || contract.consumerName !== name || typeof contract.content !== 'string') {
        throw new HttpError(400, { errors: { contracts: ['each must be a pact of the publishing consumer'] } });
      }
      const content = JSON.parse(Buffer.from(contract.content, 'base64').toString('utf8')) as Record<string, unknown>;
      const pact = this.addPact(name as string, number as string, branch ?? '', content);
      links.push({ href: this.pactUrl(pact), name: `Pact between ${name} and ${pact.provider}`, title: 'Pact' });
      notices.push({
        type: 'info',
        text: `Pact published for ${name} version ${number} and provider ${pact.provider}.`,
      });
    }
    const versionHref = `${this.url}/pacticipants/${enc(name as string)}/versions/${enc(number as string)}`;
    return [
      200,
      {
        notices,
        logs: [],
        _embedded: {
          pacticipant: { name, _links: { self: { href: `${this.url}/pacticipants/${enc(name as string)}` } } },
          version: {
            number,
            branch,
            buildUrl,
            _links: { self: { href: versionHref, name: number, title: 'Version' } },
          },
        },
        _links: {
          'pb:pacticipant': { href: `${this.url}/pacticipants/${enc(name as string)}`, name, title: 'Pacticipant' },
          'pb:pacticipant-version': { href: versionHref, name: number, title: 'Pacticipant version' },
          'pb:pacticipant-version-tags': [],
          'pb:contracts': links,
        },
      },
    ];
  }

  private pactUrl(pact: StoredPact): string {
    return `${this.url}/pacts/provider/${enc(pact.provider)}/consumer/${enc(pact.consumer)}/pact-version/${pact.sha}`;
  }

  private versionOf(pact: StoredPact): Version {
    return this.version(pact.consumer, pact.consumerVersion);
  }

  /** The latest pact of each consumer whose version satisfies `accept`. */
  private latestPerConsumer(provider: string, accept: (pact: StoredPact, version: Version) => boolean): StoredPact[] {
    const latest = new Map<string, StoredPact>();
    for (const pact of this.pacts) {
      if (pact.provider !== provider || !accept(pact, this.versionOf(pact))) continue;
      const seen = latest.get(pact.consumer);
      if (!seen || this.versionOf(seen).order <= this.versionOf(pact).order) latest.set(pact.consumer, pact);
    }
    return [...latest.values()];
  }

  private select(provider: string, selector: Selector, providerBranch: string | undefined): StoredPact[] {
    const ofConsumer = (pact: StoredPact) => !selector.consumer || pact.consumer === selector.consumer;
    if (selector.mainBranch)
      return this.latestPerConsumer(provider, (p, v) => ofConsumer(p) && v.branch === this.mainBranch);
    if (selector.branch)
      return this.latestPerConsumer(provider, (p, v) => ofConsumer(p) && v.branch === selector.branch);
    if (selector.matchingBranch) {
      return providerBranch
        ? this.latestPerConsumer(provider, (p, v) => ofConsumer(p) && v.branch === providerBranch)
        : [];
    }
    if (selector.deployedOrReleased || selector.deployed || selector.released) {
      const live = this.deployments.filter(
        (d) => d.current && (!selector.environment || d.environment === selector.environment),
      );
      return this.pacts.filter(
        (p) =>
          p.provider === provider &&
          ofConsumer(p) &&
          live.some((d) => d.pacticipant === p.consumer && d.version === p.consumerVersion),
      );
    }
    if (selector.latest) return this.latestPerConsumer(provider, (p) => ofConsumer(p));
    return [];
  }

  /** Pending: never verified successfully by a provider version of this branch or of the main branch. */
  private isPending(pact: StoredPact, providerBranch: string | undefined): boolean {
    return !this.verifications.some((v) => {
      if (v.pactSha !== pact.sha || !v.success) return false;
      const branch = this.version(pact.provider, v.providerVersion).branch;
      return branch === this.mainBranch || (providerBranch !== undefined && branch === providerBranch);
    });
  }

  private forVerification(provider: string, body: Record<string, unknown>) {
    const selectors = (
      Array.isArray(body?.consumerVersionSelectors) ? body.consumerVersionSelectors : []
    ) as Selector[];
    const providerBranch = typeof body?.providerVersionBranch === 'string' ? body.providerVersionBranch : undefined;
    const includePending = body?.includePendingStatus === true;
    const wipSince = typeof body?.includeWipPactsSince === 'string' ? new Date(body.includeWipPactsSince) : null;
    const chosen = new Map<string, { pact: StoredPact; why: string[]; wip: boolean }>();
    for (const selector of selectors) {
      for (const pact of this.select(provider, selector, providerBranch)) {
        const entry = chosen.get(pact.sha) ?? { pact, why: [], wip: false };
        entry.why.push(JSON.stringify(selector));
        chosen.set(pact.sha, entry);
      }
    }
    if (wipSince) {
      // Work in progress: the latest pact of any consumer branch, published since the date, not
      // selected above and still pending for this provider branch.
      const branches = new Set(this.pacts.map((p) => `${p.consumer}\n${this.versionOf(p).branch ?? ''}`));
      for (const key of branches) {
        const [consumer, branch] = key.split('\n');
        const [pact] = this.latestPerConsumer(
          provider,
          (p, v) => p.consumer === consumer && (v.branch ?? '') === branch,
        );
        if (!pact || chosen.has(pact.sha) || new Date(pact.createdAt) < wipSince) continue;
        if (!this.isPending(pact, providerBranch)) continue;
        chosen.set(pact.sha, { pact, why: [], wip: true });
      }
    }
    const pacts = [...chosen.values()].map(({ pact, why, wip }) => {
      const pending = wip || (includePending && this.isPending(pact, providerBranch));
      const notices = [
        {
          when: 'before_verification',
          text: wip
            ? `The pact at ${this.pactUrl(pact)} is being verified because it is a work in progress pact.`
            : `The pact at ${this.pactUrl(pact)} is being verified because it matches the following configured selection criterion: ${why.join(', ')}`,
        },
      ];
      if (includePending) {
        notices.push({
          when: 'before_verification',
          text: pending
            ? `This pact is in pending state for this version of ${provider} because a successful verification result for ${provider} from branch '${providerBranch}' has not yet been published. If this verification fails, it will not cause the overall build to fail.`
            : `This pact has previously been successfully verified by ${provider}. If this verification fails, it will fail the build.`,
        });
      }
      return {
        shortDescription: `latest from ${pact.consumer} ${pact.consumerVersion}`,
        verificationProperties: { ...(includePending && { pending }), ...(wip && { wip: true }), notices },
        _links: {
          self: {
            href: this.pactUrl(pact),
            name: `Pact between ${pact.consumer} (${pact.consumerVersion}) and ${provider}`,
          },
        },
      };
    });
    return {
      _embedded: { pacts },
      _links: { self: { href: `${this.url}/pacts/provider/${enc(provider)}/for-verification` } },
    };
  }

  private pact(sha: string) {
    const pact = this.pacts.find((p) => p.sha === sha);
    if (!pact) throw new HttpError(404, { error: `No pact ${sha}` });
    const href = this.pactUrl(pact);
    // Like the real broker, each interaction gets an `_id`: verifiers report results by it.
    const interactions = (pact.content.interactions as Record<string, unknown>[] | undefined)?.map((interaction) => ({
      _id: createHash('sha1').update(JSON.stringify(interaction)).digest('hex'),
      ...interaction,
    }));
    return {
      ...pact.content,
      ...(interactions && { interactions }),
      _links: {
        self: { href, title: 'Pact' },
        'pb:consumer': { href: `${this.url}/pacticipants/${enc(pact.consumer)}`, name: pact.consumer },
        'pb:consumer-version': {
          href: `${this.url}/pacticipants/${enc(pact.consumer)}/versions/${enc(pact.consumerVersion)}`,
          name: pact.consumerVersion,
        },
        'pb:provider': { href: `${this.url}/pacticipants/${enc(pact.provider)}`, name: pact.provider },
        'pb:publish-verification-results': {
          href: `${href}/verification-results`,
          title: 'Publish verification results',
        },
      },
    };
  }

  private verified(sha: string, body: Record<string, unknown>): [number, unknown] {
    const pact = this.pacts.find((p) => p.sha === sha);
    if (!pact) throw new HttpError(404, { error: `No pact ${sha}` });
    if (typeof body?.success !== 'boolean' || typeof body.providerApplicationVersion !== 'string') {
      throw new HttpError(400, { errors: { success: ['and providerApplicationVersion are required'] } });
    }
    this.version(pact.provider, body.providerApplicationVersion);
    const verification: Verification = {
      id: ++this.counter,
      pactSha: sha,
      providerVersion: body.providerApplicationVersion,
      success: body.success,
      testResults: body.testResults,
      ...(typeof body.buildUrl === 'string' && { buildUrl: body.buildUrl }),
      body,
    };
    this.verifications.push(verification);
    return [
      201,
      { ...body, _links: { self: { href: `${this.pactUrl(pact)}/verification-results/${verification.id}` } } },
    ];
  }

  private pacticipant(name: string) {
    // Publishing a pact makes both its consumer and its provider known.
    const known =
      this.versions.some((v) => v.pacticipant === name) ||
      this.pacts.some((p) => p.consumer === name || p.provider === name);
    if (!known) throw new HttpError(404, { error: `No pacticipant ${name}` });
    const self = `${this.url}/pacticipants/${enc(name)}`;
    return {
      name,
      mainBranch: this.mainBranch,
      _links: {
        self: { href: self },
        'pb:version': { href: `${self}/versions/{version}`, templated: true },
        'pb:branch-version': { href: `${self}/branches/{branch}/versions/{version}`, templated: true },
      },
    };
  }

  private pacticipantVersion(name: string, number: string) {
    const version = this.versions.find((v) => v.pacticipant === name && v.number === number);
    if (!version) throw new HttpError(404, { error: `No version ${number} of ${name}` });
    const self = `${this.url}/pacticipants/${enc(name)}/versions/${enc(number)}`;
    return {
      number,
      branch: version.branch,
      buildUrl: version.buildUrl,
      _links: {
        self: { href: self },
        'pb:record-deployment': this.environments.map((e) => ({
          name: e.name,
          title: `Record deployment to ${e.name}`,
          href: `${self}/deployed-versions/environment/${e.uuid}`,
        })),
      },
    };
  }

  private recordDeployment(name: string, number: string, environmentUuid: string): [number, unknown] {
    const environment = this.environments.find((e) => e.uuid === environmentUuid);
    if (!environment) throw new HttpError(404, { error: `No environment ${environmentUuid}` });
    this.pacticipantVersion(name, number);
    this.deploy(name, number, environment.name);
    return [201, { uuid: randomUUID(), currentlyDeployed: true, environment: environment.name }];
  }

  /** The matrix for one pacticipant version against what is deployed in `environment`. */
  private matrix(query: URLSearchParams) {
    const selectors: { pacticipant: string; version?: string }[] = [];
    for (const [key, value] of query) {
      if (key === 'q[][pacticipant]') selectors.push({ pacticipant: value });
      else if (key === 'q[][version]' && selectors.length) selectors[selectors.length - 1]!.version = value;
    }
    const environment = query.get('environment');
    if (!selectors.length || !environment) {
      throw new HttpError(400, { errors: { q: ['needs a pacticipant, its version and an environment'] } });
    }
    const live = (pacticipant: string) =>
      this.deployments.filter((d) => d.current && d.pacticipant === pacticipant && d.environment === environment);
    const rows: Record<string, unknown>[] = [];
    const problems: string[] = [];
    const row = (pact: StoredPact, providerVersion: string | null) => {
      const verification = [...this.verifications]
        .reverse()
        .find((v) => v.pactSha === pact.sha && v.providerVersion === providerVersion);
      rows.push({
        consumer: { name: pact.consumer, version: { number: pact.consumerVersion } },
        provider: { name: pact.provider, version: providerVersion === null ? null : { number: providerVersion } },
        pact: { createdAt: pact.createdAt },
        verificationResult: verification
          ? {
              success: verification.success,
              _links: { self: { href: `${this.pactUrl(pact)}/verification-results/${verification.id}` } },
            }
          : null,
      });
      if (!verification) {
        problems.push(
          providerVersion === null
            ? `There is no version of ${pact.provider} in ${environment}`
            : `There is no verified pact between ${pact.consumer} (${pact.consumerVersion}) and ${pact.provider} (${providerVersion})`,
        );
      } else if (!verification.success) {
        problems.push(
          `The verification between ${pact.consumer} (${pact.consumerVersion}) and ${pact.provider} (${providerVersion}) failed`,
        );
      }
    };
    for (const { pacticipant, version } of selectors) {
      // As a consumer: its pacts against the providers deployed there.
      for (const pact of this.pacts.filter((p) => p.consumer === pacticipant && p.consumerVersion === version)) {
        const providers = live(pact.provider);
        if (!providers.length) row(pact, null);
        for (const deployed of providers) row(pact, deployed.version);
      }
      // As a provider: the pacts of the consumers deployed there.
      for (const deployed of this.deployments.filter((d) => d.current && d.environment === environment)) {
        for (const pact of this.pacts.filter(
          (p) =>
            p.provider === pacticipant && p.consumer === deployed.pacticipant && p.consumerVersion === deployed.version,
        )) {
          row(pact, version ?? null);
        }
      }
    }
    const deployable = problems.length === 0;
    const reason = deployable ? 'All required verification results are published and successful' : problems.join('; ');
    return {
      summary: {
        deployable,
        reason,
        success: rows.filter((r) => (r.verificationResult as { success?: boolean } | null)?.success === true).length,
        failed: rows.filter((r) => (r.verificationResult as { success?: boolean } | null)?.success === false).length,
        unknown: rows.filter((r) => r.verificationResult === null).length,
      },
      notices: deployable ? [{ type: 'success', text: reason }] : problems.map((text) => ({ type: 'error', text })),
      matrix: rows,
    };
  }
}
