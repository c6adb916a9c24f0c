// Bundle budget: builds the SPA with Vite in memory (with source maps) and prints the gzip size
// of the JavaScript (and CSS) a first visit needs on /login and on /dashboard: the entry chunk and
// its static imports, plus the chunks of the lazy modules the route renders before its screen
// shows (the signed-in shell, the screen; FIRST_LOAD_ROUTES in tools/vite/first-load.mjs, which
// also groups them) and their static imports. Chunks fetched only after the screen is up (the
// player, the API schemas with zod, other screens) are listed apart. Then who weighs what in that
// first load: the framework (react, react-dom, scheduler) and the app (its own code and each
// library, heaviest first). Target: 105 KB gzip per route. `--strict` exits 1 over budget.
//
// How the shares are counted: the source maps say which source file wrote each byte of the
// minified chunks. The framework's bytes are gzipped together; the app's share is the rest of the
// route's measured total, split among its owners in proportion to each one's bytes gzipped alone
// (gzip works across a whole file, so the split is an estimate to within a few hundred bytes; the
// chunk totals are exact).
import { decode } from '@jridgewell/sourcemap-codec';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { FIRST_LOAD_ROUTES } from '../tools/vite/first-load.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TARGET_KB = 105;
const strict = process.argv.includes('--strict');

/** npm packages shown under one library's name (the rest by their package name). */
const LIBRARIES = {
  react: 'react',
  'react-dom': 'react-dom',
  scheduler: 'scheduler',
  '@tanstack/query-core': 'React Query',
  '@tanstack/react-query': 'React Query',
  'styled-components': 'styled-components',
  stylis: 'styled-components',
  '@emotion/is-prop-valid': 'styled-components',
  '@emotion/memoize': 'styled-components',
  '@emotion/unitless': 'styled-components',
  wouter: 'wouter',
  regexparam: 'wouter',
  'use-sync-external-store': 'wouter',
  valtio: 'valtio',
  'proxy-compare': 'valtio',
  zod: 'zod',
  'lucide-react': 'lucide-react (icons)',
};
const FRAMEWORK = new Set(['react', 'react-dom', 'scheduler']);
/** Bytes no source wrote: the chunks' imports and exports, module wrappers, the preload helper. */
const GLUE = 'the bundler (imports, exports, wrappers)';

/** Who wrote a source file: a library's name, or the app's own code. */
function ownerOf(source) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (!match) return "the app's own code (src/)";
  return LIBRARIES[match[1]] ?? match[1];
}

/**
 * The minified text of a chunk, split by owner with its source map; bytes mapped to no source are
 * the bundler's (its module wrappers and the chunks' imports and exports).
 */
function splitByOwner(code, map) {
  const parts = new Map();
  const add = (owner, text) => parts.set(owner, (parts.get(owner) ?? '') + text);
  const owners = map.sources.map((source) => ownerOf(source));
  const lines = code.split('\n');
  // A line without a mapping at its start continues the previous one (a template literal's CSS).
  let owner = GLUE;
  const mappings = decode(map.mappings);
  lines.forEach((line, index) => {
    let column = 0;
    for (const segment of mappings[index] ?? []) {
      add(owner, line.slice(column, segment[0]));
      column = segment[0];
      owner = segment.length > 1 ? owners[segment[1]] : GLUE;
    }
    add(owner, `${line.slice(column)}${index < lines.length - 1 ? '\n' : ''}`);
  });
  return parts;
}

const gzipSize = (data) => gzipSync(data, { level: 9 }).length;
const kb = (bytes) => (bytes / 1024).toFixed(1);

// Built in memory, as `npm run build` would write it (hidden maps: the chunks carry no
// sourceMappingURL comment, so their bytes are the shipped ones).
const [{ output }] = [].concat(
  await build({
    root,
    logLevel: 'warn',
    build: { write: false, sourcemap: 'hidden', chunkSizeWarningLimit: 5000 },
  }),
);
const files = new Map(output.map((file) => [file.fileName, file]));
const chunks = output.filter((file) => file.type === 'chunk');
const entry = chunks.find((chunk) => chunk.isEntry);
if (!entry) throw new Error('The build has no entry chunk');

/** The chunk a module was bundled into. */
const chunkOf = (module) => {
  const id = join(root, module);
  const chunk = chunks.find((candidate) => candidate.moduleIds.includes(id));
  if (!chunk) throw new Error(`${module} is in no chunk`);
  return chunk;
};

/** A chunk and everything it imports statically (what the browser must load before it runs). */
const closure = (fileName, seen = new Set()) => {
  if (seen.has(fileName)) return seen;
  seen.add(fileName);
  for (const imported of files.get(fileName).imports) closure(imported, seen);
  return seen;
};

let over = false;
for (const route of FIRST_LOAD_ROUTES) {
  const loaded = closure(entry.fileName);
  for (const module of route.modules) closure(chunkOf(module).fileName, loaded);
  const css = new Set([...loaded].flatMap((fileName) => [...(files.get(fileName).viteMetadata?.importedCss ?? [])]));
  let raw = 0;
  let gzip = 0;
  const shares = new Map();
  const share = (owner, text) => shares.set(owner, (shares.get(owner) ?? '') + text);
  console.log(`\n${route.path}`);
  for (const fileName of [...loaded, ...css].sort()) {
    const file = files.get(fileName);
    const text = file.type === 'chunk' ? file.code : String(file.source);
    const size = { raw: Buffer.byteLength(text), gzip: gzipSize(text) };
    raw += size.raw;
    gzip += size.gzip;
    console.log(`  ${fileName.padEnd(48)} ${kb(size.raw).padStart(8)} KB  ${kb(size.gzip).padStart(7)} KB gzip`);
    if (file.type !== 'chunk') share('stylesheets (CSS)', text);
    // The bundler's own runtime chunk has no source map.
    else for (const [owner, part] of splitByOwner(text, file.map ?? { sources: [], mappings: '' })) share(owner, part);
  }
  const ok = gzip / 1024 <= TARGET_KB;
  over ||= !ok;
  console.log(
    `  ${'total'.padEnd(48)} ${kb(raw).padStart(8)} KB  ${kb(gzip).padStart(7)} KB gzip  ` +
      `(target ${TARGET_KB} KB: ${ok ? 'OK' : 'OVER'})`,
  );

  // The framework's bytes gzipped together; the app is the rest of the measured total, shared
  // among its owners in proportion to each one's bytes gzipped alone.
  const frameworkGzip = gzipSize([...FRAMEWORK].map((owner) => shares.get(owner) ?? '').join(''));
  const alone = (owners) =>
    owners.map((owner) => ({ owner, gzip: gzipSize(shares.get(owner)) })).sort((a, b) => b.gzip - a.gzip);
  const row = (label, size, indent = 4) =>
    console.log(`${' '.repeat(indent)}${label.padEnd(50 - indent)} ${kb(size).padStart(7)} KB gzip`);
  const parts = (list, total) => {
    const scale = total / list.reduce((sum, part) => sum + part.gzip, 0);
    for (const part of list) row(part.owner, part.gzip * scale, 6);
  };
  console.log('  by owner (the split inside each share is estimated from the source maps):');
  row('framework (react + react-dom + scheduler)', frameworkGzip);
  parts(alone([...FRAMEWORK].filter((owner) => shares.has(owner))), frameworkGzip);
  row('app (everything else)', gzip - frameworkGzip);
  parts(alone([...shares.keys()].filter((owner) => !FRAMEWORK.has(owner))), gzip - frameworkGzip);

  // Loaded later, on demand: what the loaded chunks import dynamically (not yet loaded).
  const later = new Set();
  for (const fileName of loaded) {
    for (const dynamic of files.get(fileName).dynamicImports) {
      for (const other of closure(dynamic)) if (!loaded.has(other)) later.add(other);
    }
  }
  const deferred = [...later].sort().map((fileName) => `${fileName} ${kb(gzipSize(files.get(fileName).code))} KB`);
  console.log(`  fetched later, on demand: ${deferred.join(', ')}`);
}
if (strict && over) process.exitCode = 1;
