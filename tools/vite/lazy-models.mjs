// Vite plugin (production build only): the generated zod models (src/api/gen/model/*.zod.ts)
// become stubs of `lazySchema()` stand-ins, and the real modules, with zod, are loaded on
// demand as one chunk ("api-schemas") when the first answer is validated (src/api/http.ts
// resolves the stand-in). So the first screen's JavaScript carries neither zod nor the
// schemas, and no screen carries a copy of them. Generated code is untouched.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const REAL = '?lazy-real';
const MODEL_FILE = /[\\/]src[\\/]api[\\/]gen[\\/]model[\\/](?!index\.ts$)[^\\/]+\.zod\.ts$/;

/** Chunk groups: zod and every real model module in one lazily loaded chunk. */
export const lazyModelChunks = [
  {
    name: 'api-schemas',
    test: /[\\/]node_modules[\\/]zod[\\/]v4[\\/](?:classic|locales)[\\/]|[\\/]src[\\/]api[\\/]gen[\\/]model[\\/].*lazy-real/,
  },
];

export function lazyZodModels({ lazySchemaModule }) {
  return {
    name: 'lectio-lazy-zod-models',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (id.endsWith(REAL)) return readFileSync(id.slice(0, -REAL.length), 'utf8');
      if (!MODEL_FILE.test(id)) return null;
      const source = readFileSync(id, 'utf8');
      const names = [...source.matchAll(/^export const (\w+)\s*=/gm)].map((m) => m[1]);
      if (/^import (?!\* as zod from 'zod';)/m.test(source)) {
        this.error(`${path.basename(id)} imports more than zod; tools/vite/lazy-models.mjs cannot stub it`);
      }
      const real = JSON.stringify(`./${path.basename(id)}${REAL}`);
      return [
        `import { lazySchema } from ${JSON.stringify(lazySchemaModule)};`,
        `const load = () => import(${real});`,
        ...names.map(
          (name) => `export const ${name} = /* @__PURE__ */ lazySchema(() => load().then((m) => m.${name}));`,
        ),
      ].join('\n');
    },
  };
}
