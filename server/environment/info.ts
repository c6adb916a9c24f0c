import type { AppEnv, Config } from '../config';
import { isDemoMode } from '../tts/select';
import type { VoiceServer } from '../tts/voice-server';

export interface EnvironmentInfo {
  environment: AppEnv;
  signupEnabled: boolean;
  debugMode: boolean;
  /** True while a cloud voice would be stood in for by the offline voice and no voice server answers. */
  demoMode: boolean;
  /** The voice server beside Lectio, when one is configured: its name and whether it answers. */
  voiceServer?: { name: string; reachable: boolean };
  /** Whether password reset links are emailed (SMTP_URL). */
  passwordResetEmail: boolean;
  /** The operator's own terms and privacy notice (TERMS_URL, PRIVACY_URL), when published. */
  legal: { termsUrl?: string; privacyUrl?: string };
}

/** The environment as it is now: whether the voice server answers is asked (at most once a minute). */
export function environmentInfo(
  config: Pick<
    Config,
    'appEnv' | 'signupEnabled' | 'openaiApiKey' | 'elevenlabsApiKey' | 'mail' | 'termsUrl' | 'privacyUrl'
  >,
  voiceServer?: VoiceServer,
): () => Promise<EnvironmentInfo> {
  const keysMissing = isDemoMode({
    ...(config.openaiApiKey !== undefined && { openaiApiKey: config.openaiApiKey }),
    ...(config.elevenlabsApiKey !== undefined && { elevenlabsApiKey: config.elevenlabsApiKey }),
  });
  const fixed = {
    environment: config.appEnv,
    signupEnabled: config.signupEnabled,
    debugMode: config.appEnv !== 'production',
    passwordResetEmail: config.mail !== null,
    legal: {
      ...(config.termsUrl !== undefined && { termsUrl: config.termsUrl }),
      ...(config.privacyUrl !== undefined && { privacyUrl: config.privacyUrl }),
    },
  };
  return async () => {
    if (voiceServer === undefined) return { ...fixed, demoMode: keysMissing };
    const { reachable } = await voiceServer.status();
    return { ...fixed, demoMode: keysMissing && !reachable, voiceServer: { name: voiceServer.name, reachable } };
  };
}
