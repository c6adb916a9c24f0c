// @vitest-environment node
/**
 * The lint step fails on what the project's rules forbid (eslint.config.js): a hand-written
 * function over the configured limit, and a promise nobody awaits. Linted as files of the server and
 * the SPA would be, with the repository's own configuration and types.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** Where the probes are linted: as a server file and an SPA file (typed by a default project). */
const PROBES = ['server/lint-probe.ts', 'src/features/lint-probe.ts'];
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: { allowDefaultProject: PROBES } } } },
});

async function findings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const longFunction = (lines: number) =>
  `export function long(): number {\n  let total = 0;\n${'  total += 1;\n'.repeat(lines)}  return total;\n}\n`;

/** The configured limit of a server function's lines, as ESLint reads it from eslint.config.js. */
async function maxFunctionLines(): Promise<number> {
  const config = (await eslint.calculateConfigForFile(path.join(root, PROBES[0]!))) as {
    rules: Record<string, [unknown, { max: number }]>;
  };
  return config.rules['max-lines-per-function']![1].max;
}

/**
 * The first lint builds the TypeScript program of the whole repository (about 40 s on a busy 2-core
 * machine, longer when every core is taken): these tests get minutes, not the default.
 */
const LINT_TIMEOUT = 240_000;

describe('the lint step', () => {
  it('fails on a server function over the limit, and passes one at it', { timeout: LINT_TIMEOUT }, async () => {
    const MAX_FUNCTION_LINES = await maxFunctionLines();
    expect(MAX_FUNCTION_LINES).toBeLessThanOrEqual(120);
    expect(await findings('server/lint-probe.ts', longFunction(MAX_FUNCTION_LINES))).toEqual([
      expect.stringMatching(/^max-lines-per-function: Function 'long' has too many lines/),
    ]);
    expect(await findings('server/lint-probe.ts', longFunction(MAX_FUNCTION_LINES - 4))).toEqual([]);
  });

  it(
    'fails on a floating promise and on an async handler where a callback returns nothing',
    { timeout: LINT_TIMEOUT },
    async () => {
      const floating = `async function save(): Promise<void> {}\nexport function onPause(): void {\n  save();\n}\n`;
      expect(await findings('src/features/lint-probe.ts', floating)).toEqual([
        expect.stringMatching(/^@typescript-eslint\/no-floating-promises:/),
      ]);
      const misused = `export function watch(run: () => void): void {\n  run();\n}\nwatch(async () => {});\n`;
      expect(await findings('server/lint-probe.ts', misused)).toEqual([
        expect.stringMatching(/^@typescript-eslint\/no-misused-promises:/),
      ]);
      expect(await findings('src/features/lint-probe.ts', floating.replace('  save();', '  void save();'))).toEqual([]);
    },
  );
});
