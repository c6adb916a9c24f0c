/** Voice transport constants: the connection's timings and limits (docs/product.md#voice-connection). */
export { BOT_SAMPLE_RATE, MIC_SAMPLE_RATE } from '../../proto/audio';

export const MIC_CHANNELS = 1;
/** Microphone chunk size in samples (1024 bytes of Int16). */
export const MIC_CHUNK_SAMPLES = 512;

export const DEFAULT_RECONNECT_ATTEMPTS = 2;
export const MIN_RECONNECT_ATTEMPTS = 1;
export const MAX_RECONNECT_ATTEMPTS = 9;
export const RECONNECT_BASE_DELAY_MS = 1000;
export const RECONNECT_BACKOFF = 1.5;
export const RECONNECT_MAX_DELAY_MS = 30_000;
export const CONNECTION_TIMEOUT_MS = 150_000;
/** Keep-alive pings are disabled on the voice transport (the library default would be 5000). */
export const KEEP_ALIVE_INTERVAL_MS = 0;
export const REQUEST_TIMEOUT_MS = 10_000;
/** Close code sent when the connection (socket + handshake) takes too long. */
export const CLOSE_CODE_TIMEOUT = 4100;
/** Audio levels are sampled this often. */
export const LEVEL_INTERVAL_MS = 100;
/** Mic chunks kept while not ready (about 16 s); older ones are dropped first. */
export const MAX_QUEUED_MIC_CHUNKS = 500;

export const CLIENT_LIBRARY = 'lectio-web';
export const CLIENT_LIBRARY_VERSION = '0.1.0';

/** Attempts outside 1..9 fall back to the default. */
export function normalizeReconnectAttempts(attempts: number | undefined): number {
  return attempts !== undefined &&
    Number.isInteger(attempts) &&
    attempts >= MIN_RECONNECT_ATTEMPTS &&
    attempts <= MAX_RECONNECT_ATTEMPTS
    ? attempts
    : DEFAULT_RECONNECT_ATTEMPTS;
}

/** Delay before reconnect attempt `attempt` (0-based): 1000 x 1.5^attempt, capped at 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_BASE_DELAY_MS * RECONNECT_BACKOFF ** attempt, RECONNECT_MAX_DELAY_MS);
}
