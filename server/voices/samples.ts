/**
 * Voice samples: a short MP3 of a voice reading one fixed sentence, so a listener can choose a
 * voice by ear. Each is made the first time anyone asks for it (the same for every user), then
 * kept in storage under `voices/samples/`; requests for one still being made wait for it.
 */
import { createHash } from 'node:crypto';
import type { EncoderPool } from '../audio/encoder-pool';
import { createMp3Writer } from '../audio/mp3';
import type { FileStorage } from '../storage/types';
import { selectEngine, type Provider, type VoiceSettings } from '../tts/select';

/** What every sample says: long enough to hear a voice's pace and tone, short enough to make at once. */
export const SAMPLE_SENTENCE =
  'It was a bright cold morning, and the old lighthouse keeper had a story to tell before the tide came in.';

export interface VoiceSamples {
  /** The storage key of the voice's sample, made now if it does not exist yet. */
  sampleKey(provider: Provider, voiceId: string): Promise<string>;
}

export function createVoiceSamples(deps: {
  voices: VoiceSettings;
  storage: FileStorage;
  pool: () => EncoderPool | undefined;
}): VoiceSamples {
  const making = new Map<string, Promise<string>>();

  /** Another model or server behind the same voice name gives another file. */
  function keyOf(provider: Provider, voiceId: string): string {
    const speaker =
      provider === 'openai_compatible'
        ? [deps.voices.voiceServer?.name, deps.voices.voiceServer?.model]
        : provider === 'openai'
          ? [deps.voices.openaiModel]
          : provider === 'elevenlabs'
            ? [deps.voices.elevenlabsModel]
            : [];
    const digest = createHash('sha256')
      .update(JSON.stringify([provider, voiceId, ...speaker, SAMPLE_SENTENCE]))
      .digest('hex')
      .slice(0, 32);
    return `voices/samples/${provider}/${digest}.mp3`;
  }

  async function make(provider: Provider, voiceId: string, key: string): Promise<string> {
    if ((await deps.storage.stat(key)) !== null) return key;
    const selection = selectEngine(deps.voices, provider, voiceId);
    const speech = await selection.engine.synthesize(SAMPLE_SENTENCE, selection.voiceId);
    const writer = createMp3Writer({
      sampleRate: speech.sampleRate,
      sink: await deps.storage.createWriter(key),
      pool: deps.pool(),
    });
    try {
      await writer.write(speech.samples, { handOver: true });
      await writer.finish();
    } catch (error) {
      await writer.abort().catch(() => undefined);
      throw error;
    }
    return key;
  }

  return {
    sampleKey(provider, voiceId) {
      const key = keyOf(provider, voiceId);
      let pending = making.get(key);
      if (pending === undefined) {
        pending = make(provider, voiceId, key).finally(() => making.delete(key));
        making.set(key, pending);
      }
      return pending;
    },
  };
}
