// Orval's configuration: contracts/openapi.yaml -> the SPA's zod-validated React Query hooks and msw
// handlers (src/api/gen) and the server's request and response schemas (server/gen).
// Orval itself is a tool of its own in tools/codegen (it needs Node 22.18 or later, the app runs on
// 20.19: docs/adr/0018-code-generator-on-its-own-node.md); `npm run generate:api`
// (scripts/codegen.mjs) runs it with this file. So this file imports nothing from Orval: its paths
// are relative to this folder, the repository root.
// Generated code is never edited by hand: change contracts/openapi.yaml and run `npm run generate:api`.
// `npm run check:generated` fails when the committed output differs from a fresh generation.
const playlistBytes = () => new TextEncoder().encode('#EXTM3U\n').buffer;

export default {
  // The SPA: React Query hooks whose responses are parsed by the generated zod schemas.
  client: {
    input: { target: './contracts/openapi.yaml' },
    output: {
      // One file per operation (src/api/gen/endpoints/<tag>/<operation>.ts, with <tag>/index.ts
      // passing them all on), not one per tag: the bundler places a module whole, so a tag's file
      // would bring every call of the tag that any screen uses into the chunk of the first screen
      // that needs one (the account calls into the entry with sign-in, the job mutations into the
      // dashboard with the job list).
      mode: 'tags-operations',
      // The app's package.json and tsconfig (not this folder's), whose versions decide what is emitted.
      packageJson: './package.json',
      tsconfig: './tsconfig.json',
      target: './src/api/gen/endpoints',
      schemas: { path: './src/api/gen/model', type: 'zod' },
      client: 'react-query',
      httpClient: 'fetch',
      clean: true,
      // msw handlers with faker-made answers beside each tag's hooks (<tag>.msw.ts), typed by the
      // same contract: src/mocks builds the stories' realistic answers on top of them. Only stories,
      // tests and the VITE_MOCK_API demo mode import them, so faker never reaches the app's bundle.
      mock: { generators: [{ type: 'msw', delay: false, useExamples: true }] },
      override: {
        mutator: { path: './src/api/http.ts', name: 'apiFetch' },
        fetch: { runtimeValidation: true, includeHttpResponseReturnType: false },
        includeZodSchemaInArguments: true,
        // The model's enums are zod schemas, not objects of values: the mocks spell their values out.
        enumGenerationType: 'union',
        query: { version: 5 },
        operations: {
          // The playlist is text (audio/x-mpegurl) that the msw generator would fake as a string where
          // its handler sends bytes: give it a real, empty M3U as bytes instead (Orval types `data` as
          // JSON-like, but inlines the function's source as is).
          getAudioPlaylist: { mock: { data: playlistBytes as unknown as () => unknown[] } },
        },
      },
    },
  },
  // The server: the same request and response schemas, per operation.
  server: {
    input: { target: './contracts/openapi.yaml' },
    output: {
      mode: 'single',
      packageJson: './package.json',
      tsconfig: './server/tsconfig.json',
      target: './server/gen/contract.zod.ts',
      client: 'zod',
      clean: true,
    },
  },
};
