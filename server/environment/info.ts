import type { AppEnv, Config } from '../config';
import { isDemoMode } from '../tts/select';

export interface EnvironmentInfo {
  environment: AppEnv;
  signupEnabled: boolean;
  debugMode: boolean;
  /** True while no cloud voice is configured and the offline voice engine stands in. */
  demoMode: boolean;
}

export function environmentInfo(
  config: Pick<Config, 'appEnv' | 'signupEnabled' | 'openaiApiKey' | 'elevenlabsApiKey'>,
): EnvironmentInfo {
  return {
    environment: config.appEnv,
    signupEnabled: config.signupEnabled,
    debugMode: config.appEnv !== 'production',
    demoMode: isDemoMode({
      ...(config.openaiApiKey !== undefined && { openaiApiKey: config.openaiApiKey }),
      ...(config.elevenlabsApiKey !== undefined && { elevenlabsApiKey: config.elevenlabsApiKey }),
    }),
  };
}
