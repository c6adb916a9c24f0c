// @vitest-environment node
import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from '../../eslint/import-boundaries.js';

const file = (path: string) => resolve(path);
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
});

tester.run('lectio/import-boundaries', rule, {
  valid: [
    { filename: file('src/screens/Login/Login.tsx'), code: "import { login } from '../../features/auth/store';" },
    { filename: file('src/screens/Login/Login.tsx'), code: "import { Button } from '../../components/ui/Button';" },
    { filename: file('src/app/routes.tsx'), code: "import { Login } from '../screens/Login/Login';" },
    { filename: file('src/app/App.tsx'), code: "import { AppRoutes } from './routes';" },
    { filename: file('src/app/routes.tsx'), code: "import { TopNav } from './layout/TopNav';" },
    { filename: file('src/main.tsx'), code: "import { App } from './app/App';" },
    { filename: file('src/features/auth/store.ts'), code: "import { apiFetch } from '../../api/http';" },
    { filename: file('src/features/auth/store.ts'), code: "import { session } from './session';" },
    { filename: file('server/app.ts'), code: "import { loadConfig } from './config';" },
    { filename: file('tests/e2e/auth.e2e.test.ts'), code: "import { createApp } from '../../server/app';" },
    {
      filename: file('src/voice-transport/serializer.ts'),
      code: "import { pipecat } from '../../proto/gen/frames.js';",
    },
    { filename: file('server/assistant/protocol.ts'), code: "import { RTVI_LABEL } from '../../proto/rtvi';" },
    { filename: file('server/jobs/pipeline.test.ts'), code: "import { makeApp } from '../testing/app';" },
    {
      filename: file('src/screens/VoiceAssistant/VoiceAssistant.stories.tsx'),
      code: "import { FakeTransport } from '../../testing/voice-fakes';",
    },
    { filename: file('server/routes/jobs.ts'), code: "import { createConversion } from '../jobs/index';" },
    { filename: file('bench/conversion.ts'), code: "import { startServer } from '../server/testing/app';" },
    { filename: file('src/main.tsx'), code: "const m = import('./mocks/browser');" },
    {
      filename: file('src/mocks/jobs.ts'),
      code: "import { getGetJobMockHandler } from '../api/gen/endpoints/jobs/get-job.msw';",
    },
    { filename: file('src/screens/Jobs/Jobs.stories.tsx'), code: "import { jobsBackend } from '../../mocks/jobs';" },
  ],
  invalid: [
    {
      filename: file('src/screens/Jobs/Jobs.tsx'),
      code: "import { jobsBackend } from '../../mocks/jobs';",
      errors: [
        {
          message:
            'Production code must not import the msw mocks (../../mocks/jobs) statically; load them with import() for the demo mode.',
        },
      ],
    },
    {
      filename: file('src/features/jobs/hooks.ts'),
      code: "import { getGetJobMockHandler } from '../../api/gen/endpoints/jobs/get-job.msw';",
      errors: [
        {
          message:
            'Production code must not import the msw mocks (../../api/gen/endpoints/jobs/get-job.msw) statically; load them with import() for the demo mode.',
        },
      ],
    },
    {
      filename: file('server/jobs/runner.ts'),
      code: "import { makeApp } from '../testing/app';",
      errors: [
        {
          message:
            'Production code must not import the test kit or benches (../testing/app); only tests, stories and benches may.',
        },
      ],
    },
    {
      filename: file('src/features/voice-assistant/store.ts'),
      code: "import { FakeTransport } from '../../testing/voice-fakes';",
      errors: [
        {
          message:
            'Production code must not import the test kit or benches (../../testing/voice-fakes); only tests, stories and benches may.',
        },
      ],
    },
    {
      filename: file('server/audio/mp3.ts'),
      code: "import { run } from '../../bench/encode';",
      errors: [
        {
          message:
            'Production code must not import the test kit or benches (../../bench/encode); only tests, stories and benches may.',
        },
      ],
    },
    {
      filename: file('proto/rtvi.ts'),
      code: "import { messageId } from '../src/voice-transport/rtvi';",
      errors: [
        { message: 'proto/ is shared by the SPA and the server and imports neither (../src/voice-transport/rtvi).' },
      ],
    },
    {
      filename: file('server/jobs/service.ts'),
      code: "import { HttpError } from '../http/errors';",
      errors: [
        {
          message:
            'Server domains must not import the HTTP edge or the composition root: jobs must not import http (../http/errors).',
        },
      ],
    },
    {
      filename: file('server/db/open.ts'),
      code: "import type { App } from '../app';",
      errors: [
        {
          message:
            'Server domains must not import the HTTP edge or the composition root: db must not import app (../app).',
        },
      ],
    },
    {
      filename: file('src/features/auth/store.ts'),
      code: "import { Login } from '../../screens/Login/Login';",
      errors: [
        { message: 'Imports flow shared -> features -> screens -> app: features/auth must not import screens/Login.' },
      ],
    },
    {
      filename: file('src/features/player/store.ts'),
      code: "import { state } from '../auth/store';",
      errors: [
        {
          message:
            'features/player must not import another feature (features/auth); move the shared part down a layer.',
        },
      ],
    },
    {
      filename: file('src/screens/Jobs/Jobs.tsx'),
      code: "export { JobCard } from '../Dashboard/JobCard';",
      errors: [
        {
          message:
            'screens/Jobs must not import another screen (screens/Dashboard); move the shared part down a layer.',
        },
      ],
    },
    {
      filename: file('src/components/ui/Button.tsx'),
      code: "import { routes } from '../../app/paths';",
      errors: [{ message: 'Imports flow shared -> features -> screens -> app: components must not import app.' }],
    },
    {
      filename: file('src/api/http.ts'),
      code: "import { loadConfig } from '../../server/config';",
      errors: [{ message: 'src/ must not import from server/ (../../server/config).' }],
    },
    {
      filename: file('server/routes/auth.ts'),
      code: "const m = import('../../src/api/http');",
      errors: [{ message: 'server/ must not import from src/ (../../src/api/http).' }],
    },
  ],
});
