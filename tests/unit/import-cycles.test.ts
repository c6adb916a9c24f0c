// @vitest-environment node
/**
 * No import circle in server/ or src/: a module never imports (directly or through others) a
 * module that imports it back. A circle means two files are one concept split in two, or a type
 * without one home; it also makes the order in which modules load matter. Type-only imports count
 * (`import type` circles are the same tangle for a reader). Generated code (`gen/`) is not ours to
 * untangle, but a circle through it that starts in our code is.
 *
 * dependency-cruiser reads the imports the way TypeScript resolves them; `npx depcruise server src
 * --no-config --output-type dot` draws the same graph.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

const options: ICruiseOptions = {
  validate: true,
  ruleSet: {
    forbidden: [
      {
        name: 'no-circular',
        severity: 'error',
        comment: 'An import circle: these modules import each other.',
        from: { pathNot: '(^|/)gen/' },
        to: { circular: true },
      },
    ],
  },
  doNotFollow: { path: 'node_modules' },
  // Count `import type` too: a type-only circle still has no single home for its types.
  tsPreCompilationDeps: true,
};

/** Each circle once, as "a.ts -> b.ts -> a.ts" (paths relative to `base`). */
async function circles(base: string, folders: string[]): Promise<string[]> {
  const { output } = await cruise(folders, { ...options, baseDir: base });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text instead of a result');
  const violations: IViolation[] = output.summary.violations.filter((v) => v.rule.name === 'no-circular');
  const seen = new Set<string>();
  const found: string[] = [];
  for (const v of violations) {
    const loop = [v.from, ...(v.cycle ?? []).map((step) => step.name)];
    const key = [...new Set(loop)].sort().join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(loop.join(' -> '));
  }
  return found;
}

describe('import circles', () => {
  it('finds a circle, also one made of type-only imports', async () => {
    const dir = path.join(tmpdir(), 'circle');
    mkdirSync(path.join(dir, 'lib'), { recursive: true });
    writeFileSync(path.join(dir, 'lib/a.ts'), "import type { B } from './b';\nexport interface A { b: B }\n");
    writeFileSync(path.join(dir, 'lib/b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
    writeFileSync(path.join(dir, 'lib/c.ts'), "import type { A } from './a';\nexport type C = A;\n");
    const found = await circles(dir, ['lib']);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^lib\/(a|b)\.ts -> lib\/(a|b)\.ts -> lib\/(a|b)\.ts$/);
  }, 120_000);

  it('server/ and src/ have none', async () => {
    expect(await circles(root, ['server', 'src'])).toEqual([]);
  }, 120_000);
});
