import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importBoundaries from './eslint/import-boundaries.js';

const root = import.meta.dirname;
/** The longest hand-written function, in lines of code (tests, stories and test kits aside). */
const MAX_FUNCTION_LINES = 120;
/** The longest hand-written file, in lines of code. */
const MAX_FILE_LINES = 400;
/** TypeScript files no tsconfig includes, typed by a default project. */
const LINTED_OUTSIDE_PROJECTS = [
  'scripts/make-sample-mp3.ts',
  '.storybook/*.ts',
  '.storybook/*.tsx',
  '.storybook/review/*.ts',
  '.storybook/review/*.tsx',
];

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
  {
    // Typed rules: code this asynchronous must not drop a promise (a rejection nobody sees), hand a
    // promise where a callback's result is ignored, or await what is not one. The TypeScript
    // project of each file (tsconfig.json, server/tsconfig.json) gives the types.
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: LINTED_OUTSIDE_PROJECTS }, tsconfigRootDir: root },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Functions a reader can hold and files a reader can finish (docs/architecture.md#naming).
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'proto/*.ts', 'scripts/**/*.{mjs,ts}', 'bench/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.stories.tsx', 'server/testing/**', 'src/testing/**', 'src/mocks/**'],
    rules: {
      'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: MAX_FILE_LINES, skipBlankLines: true, skipComments: true }],
    },
  },
);
