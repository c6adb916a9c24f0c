// Writes the configuration tables of README.md from the declarations in server/config/, so the two
// never disagree: one table per section, in the order CONFIG_SECTIONS lists them.
// Run: node --import tsx scripts/readme-config.ts   (tests/unit/readme.test.ts checks it is current)
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_SECTIONS } from '../server/config';
import type { Variable } from '../server/config/declare';

const start = '<!-- config-table:start -->';
const end = '<!-- config-table:end -->';

export function configTable(): string {
  const tables = CONFIG_SECTIONS.map((section) => {
    const rows = Object.values(section.variables as Record<string, Variable<unknown>>).map(
      (v) => `| \`${v.name}\` | ${v.shownDefault} | ${v.description.replaceAll('|', '\\|')} |`,
    );
    return [`**${section.title}**`, '', '| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
  });
  return [start, tables.join('\n\n'), end].join('\n');
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
