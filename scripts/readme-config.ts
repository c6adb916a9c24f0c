// Writes the configuration table of README.md from server/config.ts, so the two never disagree.
// Run: node --import tsx scripts/readme-config.ts   (tests/unit/readme.test.ts checks it is current)
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_VARIABLES } from '../server/config';

const start = '<!-- config-table:start -->';
const end = '<!-- config-table:end -->';

export function configTable(): string {
  const rows = CONFIG_VARIABLES.map(
    (v) => `| \`${v.name}\` | ${v.default} | ${v.description.replaceAll('|', '\\|')} |`,
  );
  return [start, '| Variable | Default | Meaning |', '|---|---|---|', ...rows, end].join('\n');
}

export function withConfigTable(readme: string): string {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < 0) throw new Error('README.md lacks the config-table markers');
  return readme.slice(0, from) + configTable() + readme.slice(to + end.length);
}

if (process.argv[1]?.endsWith('readme-config.ts')) {
  writeFileSync('README.md', withConfigTable(readFileSync('README.md', 'utf8')));
}
