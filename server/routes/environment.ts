import { GetEnvironmentResponse } from '../gen/contract.zod';
import type { EnvironmentInfo } from '../environment/info';
import type { RoutePlugin } from './types';

export const environmentRoutes: RoutePlugin<{ info: EnvironmentInfo }> = async (app, { info }) => {
  app.get(
    '/environment',
    { config: { public: true }, schema: { response: { 200: GetEnvironmentResponse } } },
    async () => ({
      environment: info.environment,
      features: {
        signup_enabled: info.signupEnabled,
        debug_mode: info.debugMode,
        demo_mode: info.demoMode,
      },
    }),
  );
};
