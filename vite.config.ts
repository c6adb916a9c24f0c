/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { firstLoadChunks, firstLoadGroups } from './tools/vite/first-load.mjs';
import { lazyModelChunks, lazyZodModels } from './tools/vite/lazy-models.mjs';
import { noVendorPrefixes } from './tools/vite/no-vendor-prefixes.mjs';

// The API runs on its own port in development (`npm run dev`); Vite proxies /api to it,
// including the voice assistant's websocket.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

export default defineConfig({
  plugins: [
    react(),
    noVendorPrefixes(),
    lazyZodModels({ lazySchemaModule: fileURLToPath(new URL('./src/api/lazySchema.ts', import.meta.url)) }),
    firstLoadGroups({ root: fileURLToPath(new URL('.', import.meta.url)) }),
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
      // zod and the generated schemas: one chunk, loaded with the first answer to validate; the
      // first screens' modules: one chunk per measured route (tools/vite/first-load.mjs).
      output: {
        codeSplitting: { groups: [...lazyModelChunks, ...firstLoadChunks] },
      },
    },
  },
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['./tests/setup/dom.ts', './tests/setup/temp-dir.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          setupFiles: ['./tests/setup/temp-dir.ts'],
          include: ['server/**/*.test.ts', 'proto/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
