import type { JobOutput, TtsProviderOutput } from '../api/gen/model';

/** A cloud voice provider a book can be made with. */
export type TtsProvider = TtsProviderOutput;

export const providerLabel: Record<TtsProvider, string> = { openai: 'OpenAI', elevenlabs: 'ElevenLabs' };

/**
 * The voice provider a job was made with: its voice config's provider (the voice the server
 * synthesised with), else the job's own `provider`, else OpenAI, the server's default. A list
 * summary and a whole job both carry these fields.
 */
export function jobProvider(job: { config: Pick<JobOutput['config'], 'provider' | 'voice_config'> }): TtsProvider {
  return job.config.voice_config?.provider ?? job.config.provider ?? 'openai';
}
