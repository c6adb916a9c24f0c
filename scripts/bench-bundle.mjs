// Bundle budget: builds the SPA with Vite into a temporary folder (with a manifest) and prints
// the gzip size of the JavaScript (and CSS, if any) a first visit needs on /login and on
// /dashboard: the entry chunk and its static imports, plus, for a lazy route, the route's
// chunk and its static imports. Target: 150 KB gzip per route. `--strict` exits 1 over budget.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TARGET_KB = 150;
const strict = process.argv.includes('--strict');

/** Which lazy screen module each measured route renders (null: only the entry). */
const routes = [
  { path: '/login', screen: null },
  { path: '/dashboard', screen: 'src/screens/Dashboard/Dashboard.tsx' },
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
    if (route.screen && !manifest[route.screen]) throw new Error(`${route.screen} is not a chunk of its own`);
    const keys = closure(entryKey);
    if (route.screen) closure(route.screen, keys);
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
  }
  if (strict && over) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
