import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importBoundaries from './eslint/import-boundaries.js';

export default tseslint.config(
  {
    // Everything built or written by a run (npm start, npm test, the bench) is not source.
    ignores: [
      'dist/**',
      'dist-server/**',
      'dist-server.*/**',
      'storybook-static/**',
      'coverage/**',
      'test-results/**',
      'node_modules/**',
      'data/**',
      'public/mockServiceWorker.js',
      // Generated code is never edited, so it is not linted either.
      'src/api/gen/**',
      'server/gen/**',
      'proto/gen/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { lectio: { rules: { 'import-boundaries': importBoundaries } } },
    rules: {
      'lectio/import-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['scripts/**', 'tests/**', 'server/**', 'proto/**', 'bench/**', '.storybook/**', '*.config.*', '*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
