// Bundle budget: builds the SPA with Vite into a temporary folder (with a manifest) and prints
// the gzip size of the JavaScript (and CSS, if any) a first visit needs on /login and on
// /dashboard: the entry chunk and its static imports, plus the lazy modules the route renders
// before its screen shows (the signed-in shell, the screen) and their static imports. Chunks
// fetched only after the screen is up (the player, the API schemas with zod, other screens) are
// listed apart. Target: 100 KB gzip per route. `--strict` exits 1 over budget.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TARGET_KB = 100;
const strict = process.argv.includes('--strict');

/** The lazy modules each measured route renders before its screen shows (besides the entry). */
const routes = [
  { path: '/login', modules: ['src/screens/Login/Login.tsx'] },
  { path: '/dashboard', modules: ['src/app/layout/SignedInShell.tsx', 'src/screens/Dashboard/Dashboard.tsx'] },
];

const outDir = mkdtempSync(join(tmpdir(), 'lectio-bench-'));
try {
  await build({
    root,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
  });
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('The manifest has no entry chunk');

  /** A chunk and everything it imports statically (what the browser must load before it runs). */
  const closure = (key, seen = new Set()) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
    return seen;
  };

  const sizeOf = (file) => {
    const bytes = readFileSync(join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const kb = (bytes) => (bytes / 1024).toFixed(1);

  let over = false;
  for (const route of routes) {
    for (const module of route.modules) {
      if (!manifest[module]) throw new Error(`${module} is not a chunk of its own`);
    }
    const keys = closure(entryKey);
    for (const module of route.modules) closure(module, keys);
    const files = new Set();
    for (const key of keys) {
      files.add(manifest[key].file);
      for (const css of manifest[key].css ?? []) files.add(css);
    }
    let raw = 0;
    let gzip = 0;
    console.log(`\n${route.path}`);
    for (const file of [...files].sort()) {
      const size = sizeOf(file);
      raw += size.raw;
      gzip += size.gzip;
      console.log(`  ${file.padEnd(48)} ${kb(size.raw).padStart(8)} KB  ${kb(size.gzip).padStart(7)} KB gzip`);
    }
    const ok = gzip / 1024 <= TARGET_KB;
    over ||= !ok;
    console.log(
      `  ${'total'.padEnd(48)} ${kb(raw).padStart(8)} KB  ${kb(gzip).padStart(7)} KB gzip  ` +
        `(target ${TARGET_KB} KB: ${ok ? 'OK' : 'OVER'})`,
    );
    // Loaded later, on demand: what the route's modules import dynamically (not yet loaded).
    const later = new Set();
    for (const key of keys) {
      for (const dynamic of manifest[key].dynamicImports ?? []) {
        for (const k of closure(dynamic)) if (!keys.has(k)) later.add(manifest[k].file);
      }
    }
    const deferred = [...later].sort().map((file) => `${file} ${kb(sizeOf(file).gzip)} KB`);
    console.log(`  fetched later, on demand: ${deferred.join(', ')}`);
  }
  if (strict && over) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
