import { GetEnvironmentResponse } from '../gen/contract.zod';
import type { EnvironmentInfo } from '../environment/info';
import type { RoutePlugin } from './types';

export const environmentRoutes: RoutePlugin<{ info: () => Promise<EnvironmentInfo> }> = async (app, { info }) => {
  app.get(
    '/environment',
    { config: { public: true }, schema: { response: { 200: GetEnvironmentResponse } } },
    async () => {
      const now = await info();
      return {
        environment: now.environment,
        features: {
          signup_enabled: now.signupEnabled,
          debug_mode: now.debugMode,
          demo_mode: now.demoMode,
          password_reset_email: now.passwordResetEmail,
        },
        ...(now.voiceServer !== undefined && { voice_server: now.voiceServer }),
        ...(Object.keys(now.legal).length > 0 && {
          legal: {
            ...(now.legal.termsUrl !== undefined && { terms_url: now.legal.termsUrl }),
            ...(now.legal.privacyUrl !== undefined && { privacy_url: now.legal.privacyUrl }),
          },
        }),
      };
    },
  );
};
