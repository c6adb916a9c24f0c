import { defineConfig } from 'orval';

// Generated code is never edited by hand: change contracts/openapi.yaml and run `npm run generate:api`.
// `npm run check:generated` fails when the committed output differs from a fresh generation.
export default defineConfig({
  // The SPA: React Query hooks whose responses are parsed by the generated zod schemas.
  client: {
    input: { target: './contracts/openapi.yaml' },
    output: {
      mode: 'tags-split',
      target: './src/api/gen/endpoints',
      schemas: { path: './src/api/gen/model', type: 'zod' },
      client: 'react-query',
      httpClient: 'fetch',
      clean: true,
      override: {
        mutator: { path: './src/api/http.ts', name: 'apiFetch' },
        fetch: { runtimeValidation: true, includeHttpResponseReturnType: false },
        includeZodSchemaInArguments: true,
        query: { version: 5 },
      },
    },
  },
  // The server: the same request and response schemas, per operation.
  server: {
    input: { target: './contracts/openapi.yaml' },
    output: {
      mode: 'single',
      target: './server/gen/contract.zod.ts',
      client: 'zod',
      clean: true,
    },
  },
});
