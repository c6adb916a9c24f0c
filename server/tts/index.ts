export { splitIntoChunks, splitSentences, type Chunk, type SentenceSpan } from './chunking';
export {
  createElevenLabsEngine, elevenLabsMaxChars, ELEVENLABS_MODEL_LIMITS, type ElevenLabsEngineOptions,
} from './elevenlabs';
export {
  createEspeakEngine, detectNativeEspeak, getOfflineEngine, getWasmRuntime, offlineVoiceFor, STAND_IN_VOICES,
  type EspeakEngine, type EspeakOptions,
} from './espeak';
export { createOpenAiEngine, OPENAI_MAX_CHARS, type OpenAiEngineOptions } from './openai';
export type { RetryOptions } from './retry';
export { DEFAULT_VOICES, isDemoMode, selectEngine, type EngineSelection, type Provider, type VoiceSettings } from './select';
export { isTtsError, TtsError, type EngineName, type Speech, type TtsEngine, type TtsErrorCode } from './types';
export { encodeWav, parseWav, pcm16leToSamples } from './wav';
