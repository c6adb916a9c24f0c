/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstLoadChunks, firstLoadGroups } from './tools/vite/first-load.mjs';
import { lazyModelChunks, lazyZodModels } from './tools/vite/lazy-models.mjs';
import { noVendorPrefixes } from './tools/vite/no-vendor-prefixes.mjs';

// The API runs on its own port in development (`npm run dev`); Vite proxies /api to it,
// including the voice assistant's websocket.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

/**
 * The tests of the repository's own rules rather than of its behaviour (docs, README, the
 * architecture map, file sizes, import boundaries and circles, table owners, CI's tools): quick,
 * they run beside lint (`npm run test:meta`).
 */
const META_TESTS = [
  'tests/unit/architecture.test.ts',
  'tests/unit/contracts-doc.test.ts',
  'tests/unit/docs.test.ts',
  'tests/unit/import-boundaries.test.ts',
  'tests/unit/import-cycles.test.ts',
  'tests/unit/lint-rules.test.ts',
  'tests/unit/readme.test.ts',
  'tests/unit/server-flags.test.ts',
  'tests/unit/story-docs.test.ts',
  'tests/unit/table-owners.test.ts',
  'tests/unit/test-chain.test.ts',
  'tests/unit/test-tools.test.ts',
];

/**
 * React Query's mutation hook and its observer, a chunk of their own: the first screens only read
 * (a sign-in or sign-up is a plain call), so they load with the first screen that changes something.
 * Without this group they would go with the entry, whose generated calls import the hooks they
 * leave unused.
 */
const mutationChunk = {
  name: 'mutations',
  test: /[\\/]@tanstack[\\/](?:react-query[\\/]build[\\/]modern[\\/]useMutation|query-core[\\/]build[\\/]modern[\\/]mutationObserver)\.js$/,
  includeDependenciesRecursively: false,
};

/** Vitest's own exclusions, kept when a project lists more. */
const EXCLUDED = ['**/node_modules/**', '**/.git/**'];

const SERVER_TESTS = ['server/**/*.test.ts', 'proto/**/*.test.ts', 'tests/integration/**/*.test.ts'];

/**
 * The server's test files by what they start, read from what they import and call: `integration`
 * starts real PostgreSQL servers or the server's processes as in production (tests/integration/,
 * tests/support/postgres.ts, tests/support/cluster.ts); `app` boots the whole app in-process
 * (createTestApp, createApp). Read when the config loads, so a new test file lands in its group
 * without being listed.
 */
function groupServerTests(): { app: string[]; integration: string[] } {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(file);
      return entry.name.endsWith('.test.ts') ? [file] : [];
    });
  const groups = { app: [] as string[], integration: [] as string[] };
  for (const file of ['server', 'proto', 'tests/integration'].flatMap(files)) {
    const source = readFileSync(path.join(root, file), 'utf8');
    if (file.startsWith('tests/integration/') || /tests\/support\/(postgres|cluster)'/.test(source))
      groups.integration.push(file);
    else if (/\bcreate(Test)?App\(/.test(source)) groups.app.push(file);
  }
  return groups;
}
const serverTests = groupServerTests();

export default defineConfig({
  plugins: [
    react(),
    noVendorPrefixes(),
    lazyZodModels({ lazySchemaModule: fileURLToPath(new URL('./src/api/lazySchema.ts', import.meta.url)) }),
    firstLoadGroups({ root: fileURLToPath(new URL('.', import.meta.url)) }),
    // The installable app: its web manifest and the service worker built from
    // src/app/service-worker/sw.ts, which precaches the shell (the files globbed below) and reads
    // the kept books. The page registers it (src/app/layout/AppNotices.tsx); a new version waits
    // for the listener. Not in Storybook, whose build is not the app.
    VitePWA({
      disable: process.env.STORYBOOK === 'true',
      // A build kept in memory (the bundle bench) writes no service worker into dist/.
      integration: {
        configureOptions(viteConfig, options) {
          if (viteConfig.build.write === false) options.disable = true;
        },
      },
      strategies: 'injectManifest',
      srcDir: 'src/app/service-worker',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // The icons: these two, and the manifest's own (added by the plugin).
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,woff2}'],
        // msw's worker and the stories' sample audio are in public/ for Storybook, not for the app.
        globIgnores: ['mockServiceWorker.js', 'fixtures/**'],
      },
      manifest: {
        id: '/',
        name: 'Lectio',
        short_name: 'Lectio',
        description:
          'Turn texts, book files and web pages into audiobooks, and listen where you left off, offline too.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        // The light theme's page colour (src/styles/theme.ts); index.html gives the dark one to
        // browsers in dark mode (tests/e2e/offline.e2e.test.ts holds them to the themes).
        theme_color: '#faf6f0',
        background_color: '#faf6f0',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: '/pwa-maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  resolve: {
    alias: {
      // wouter imports the useSyncExternalStore shim for React 17; React 18 and 19 have their own.
      'use-sync-external-store/shim/index.js': 'use-sync-external-store',
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the app supports preloads modules itself (the polyfill was 0.3 KB gzip).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // zod and the generated schemas: one chunk, loaded with the first answer to validate; React
      // Query's mutation hook: one chunk, loaded with the first screen that uses it; the first
      // screens' modules: one chunk per measured route (tools/vite/first-load.mjs).
      output: {
        codeSplitting: { groups: [...lazyModelChunks, mutationChunk, ...firstLoadChunks] },
      },
    },
  },
  test: {
    globals: true,
    // Vitest's default on a run is one worker fewer than the CPUs: on a 2-core machine one file at a
    // time, with the other core mostly idle while a test waits on its child processes. At least two
    // (projects that must run one file at a time say so with fileParallelism: false).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The projects are grouped by what a test file costs, so each can run as a step of its own
    // (scripts/test-all.mjs) and the quick ones in the inner loop (scripts/check.mjs):
    //   meta         the repository's own rules: docs, README, architecture map, file sizes, imports
    //   unit         the SPA and its units (jsdom), nothing booted
    //   server       server and protocol units: no app booted
    //   app          server tests that boot the whole app in-process (createTestApp, createApp)
    //   integration  real PostgreSQL servers and processes started as in production
    projects: [
      {
        extends: true,
        test: {
          name: 'meta',
          environment: 'node',
          include: META_TESTS,
          setupFiles: ['./tests/setup/temp-dir.ts'],
          // npm test runs them beside lint, the type checks and the Storybook build.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          // A worker's files share one module graph and one jsdom, set up once per worker instead of
          // once per file (four fifths of this project's CPU time). The files pass in any order
          // (`--sequence.shuffle.files`): each resets the stores it uses.
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'],
          exclude: [...EXCLUDED, ...META_TESTS],
          setupFiles: ['./tests/setup/dom.ts', './tests/setup/temp-dir.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: SERVER_TESTS,
          exclude: [...EXCLUDED, ...serverTests.app, ...serverTests.integration],
          // Two files at once, on a machine another process may be keeping busy: room to spare.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'node',
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: serverTests.app,
          // A worker runs file after file in one process and module graph: the server's modules are
          // loaded and compiled once per worker, not once per file (a sixth to a third of this
          // project's CPU time). So a file must leave the process as it found it: no handler, timer
          // or mock of its own behind it (server/process.test.ts undoes its signal handlers and
          // deadlines).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: serverTests.integration,
          // One file at a time: each starts PostgreSQL and several server processes, which build
          // dist-server/ first when it is stale.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'pact-consumer',
          environment: 'node',
          // The Pact tools send an anonymous usage event unless told not to; tests reach no network.
          env: { PACT_DO_NOT_TRACK: 'true' },
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: ['tests/pact/consumer/**/*.pact.test.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'pact-provider',
          environment: 'node',
          env: { PACT_DO_NOT_TRACK: 'true' },
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: ['tests/pact/provider/**/*.test.ts'],
          // One at a time: the broker tests run the verification in a process of its own.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: ['tests/e2e/**/*.e2e.test.ts'],
          // The app built once first (no start waits for a build); then one file at a time: the
          // step runs beside the busy lane's, and two files at once on top of it left a shelf's
          // Play waiting past its timeout.
          globalSetup: ['./tests/setup/e2e-build.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
