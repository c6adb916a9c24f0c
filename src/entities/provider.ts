import type { JobOutput, TtsProviderOutput } from '../api/gen/model';

/** Who reads a book: a cloud provider, the offline voice, or the voice server beside Lectio. */
export type TtsProvider = TtsProviderOutput;

export const providerLabel: Record<TtsProvider, string> = {
  openai: 'OpenAI',
  elevenlabs: 'ElevenLabs',
  offline: 'Offline voice',
  openai_compatible: 'Voice server',
};

/**
 * The voice provider a job was made with: its voice config's provider (the voice the server
 * synthesised with), else the job's own `provider`, else OpenAI, the server's default. A list
 * summary and a whole job both carry these fields.
 */
export function jobProvider(job: { config: Pick<JobOutput['config'], 'provider' | 'voice_config'> }): TtsProvider {
  return job.config.voice_config?.provider ?? job.config.provider ?? 'openai';
}

/** How a voice is shown: what spoke (or will), and the voice the reader asked for when that differs. */
export interface VoiceLabel {
  /** "Offline voice", "OpenAI", "ElevenLabs". */
  label: string;
  /** "requested OpenAI" when the offline voice stood in for a cloud one; else null. */
  requested: string | null;
  /** Badge tone: the offline voice is neutral, cloud voices info/success as before. */
  tone: 'neutral' | 'info' | 'success';
}

const OFFLINE = 'Offline voice';

/**
 * What a job's badge says (docs/product.md#voices): the engine that really spoke
 * (`result_data.tts_engine`) once it has; before that, the offline voice in demo mode (no cloud key:
 * every voice is the offline one) or the requested provider. The requested provider is the
 * secondary text whenever the offline voice stood in for it.
 */
export function voiceLabel(
  job: {
    config: Pick<JobOutput['config'], 'provider' | 'voice_config'>;
    result_data?: { tts_engine?: string | null } | null;
  },
  demoMode = false,
): VoiceLabel {
  const requested = jobProvider(job);
  const engine = job.result_data?.tts_engine || null;
  // The offline voice chosen on purpose stands in for nobody; the voice server is never stood in for.
  if (requested === 'offline') return { label: OFFLINE, requested: null, tone: 'neutral' };
  const cloud = requested === 'openai' || requested === 'elevenlabs';
  const offline = engine ? engine === 'espeak-ng' : demoMode && cloud;
  if (offline) return { label: OFFLINE, requested: `requested ${providerLabel[requested]}`, tone: 'neutral' };
  const known = engine === 'elevenlabs' || engine === 'openai' || engine === 'openai_compatible';
  // A voice source this client does not know yet is named as the server names it.
  if (engine && !known) return { label: engineName(engine), requested: null, tone: 'neutral' };
  const spoke: TtsProvider = known ? engine : requested;
  return { label: providerLabel[spoke], requested: null, tone: spoke === 'openai' ? 'info' : 'success' };
}

/** 'piper-tts' -> 'Piper tts': an engine's name for people. */
function engineName(engine: string): string {
  const words = engine.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The badge text with its secondary part: "Offline voice · requested OpenAI". */
export function voiceLabelText(voice: VoiceLabel): string {
  return voice.requested ? `${voice.label} · ${voice.requested}` : voice.label;
}
