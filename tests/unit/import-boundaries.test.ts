// @vitest-environment node
import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from '../../eslint/import-boundaries.js';

const file = (path: string) => resolve(path);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' } });

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
  ],
  invalid: [
    {
      filename: file('src/features/auth/store.ts'),
      code: "import { Login } from '../../screens/Login/Login';",
      errors: [{ message: 'Imports flow shared -> features -> screens -> app: features/auth must not import screens/Login.' }],
    },
    {
      filename: file('src/features/player/store.ts'),
      code: "import { state } from '../auth/store';",
      errors: [{ message: "features/player must not import another feature (features/auth); move the shared part down a layer." }],
    },
    {
      filename: file('src/screens/Jobs/Jobs.tsx'),
      code: "export { JobCard } from '../Dashboard/JobCard';",
      errors: [{ message: "screens/Jobs must not import another screen (screens/Dashboard); move the shared part down a layer." }],
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
