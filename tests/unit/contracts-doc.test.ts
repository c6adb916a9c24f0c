// @vitest-environment node
// docs/contracts.md is what another backend implements the provider states from: every state the
// pact names must be described there, with every parameter it is given and every value the
// interactions inject from it; every voice message must be in its table; and the CI examples must
// be YAML that runs scripts package.json has.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(root, 'docs/contracts.md'), 'utf8');

interface Interaction {
  type: string;
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
}

const pactText = readFileSync(path.join(root, 'contracts/pacts/lectio-web-lectio-api.json'), 'utf8');
const pact = JSON.parse(pactText) as { interactions: (Interaction & Record<string, unknown>)[] };

/** Each state the pact names, with the parameters it is given and the values injected from it. */
function statesInPact() {
  const found = new Map<string, { params: Set<string>; injected: Set<string> }>();
  for (const interaction of pact.interactions) {
    const injected = [...JSON.stringify(interaction).matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!);
    for (const state of interaction.providerStates ?? []) {
      const entry = found.get(state.name) ?? { params: new Set(), injected: new Set() };
      for (const key of Object.keys(state.params ?? {})) entry.params.add(key);
      for (const name of injected) entry.injected.add(name);
      found.set(state.name, entry);
    }
  }
  return found;
}

/** The text under each `### \`state\`` heading of the provider states, up to the next heading. */
function documentedStates(): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | null = null;
  let fenced = false;
  for (const line of doc.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const named = heading[1] === '###' && /^`([^`]+)`$/.exec(heading[2]!.trim());
      current = named ? named[1]! : null;
      if (current) sections.set(current, '');
      continue;
    }
    if (current) sections.set(current, `${sections.get(current)}${line}\n`);
  }
  return sections;
}

describe('docs/contracts.md describes what the pact needs', () => {
  const inPact = statesInPact();
  const documented = documentedStates();

  it('names the pact’s provider states (there are some to check)', () => {
    expect(inPact.size).toBeGreaterThan(10);
  });

  it('describes every provider state, with its parameters and the values it injects', () => {
    const problems: string[] = [];
    for (const [state, { params, injected }] of inPact) {
      const section = documented.get(state);
      if (section === undefined) {
        problems.push(`"${state}" has no "### \`${state}\`" section`);
        continue;
      }
      for (const what of ['Parameters', 'Creates', 'Relied on', 'Our server']) {
        if (!section.includes(`**${what}:**`)) problems.push(`"${state}" does not say ${what}`);
      }
      for (const param of params) {
        if (!section.includes(`\`${param}\``)) problems.push(`"${state}" does not describe its parameter ${param}`);
      }
      for (const value of injected) {
        if (!section.includes(`**\`${value}\`**`)) problems.push(`"${state}" does not say it injects ${value}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('describes no state the pact does not use', () => {
    expect([...documented.keys()].filter((state) => !inPact.has(state))).toEqual([]);
  });

  it('says how to produce every voice message', () => {
    const messages = pact.interactions.filter((i) => i.type.endsWith('/Messages')).map((i) => i.description);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.filter((description) => !doc.includes(`| \`${description}\` |`))).toEqual([]);
  });

  it('gives CI examples that are YAML running scripts this repository has', () => {
    const ci = doc.slice(doc.indexOf('## CI'));
    const blocks = [...ci.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts;
    for (const block of blocks) {
      const workflow = parse(block) as { jobs: Record<string, { steps: { run?: string }[] }> };
      expect(Object.keys(workflow.jobs).length).toBeGreaterThan(0);
      const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => step.run ?? ''));
      for (const run of runs) {
        for (const [, script] of run.matchAll(/npm run ([\w:-]+)/g)) expect(scripts).toHaveProperty([script!]);
      }
    }
  });
});
