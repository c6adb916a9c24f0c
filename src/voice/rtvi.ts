/**
 * RTVI: the JSON message protocol that rides inside MessageFrames (voice-protocol.md section 2).
 * Only the envelope and the few messages the client itself builds are typed here; everything the
 * server sends is passed on as an RTVIMessage for the caller to read by `type`.
 */
export const RTVI_LABEL = 'rtvi-ai';
export const RTVI_PROTOCOL_VERSION = '2.1.0';

export interface RTVIMessage<D = unknown> {
  label: typeof RTVI_LABEL;
  type: string;
  id?: string;
  data?: D;
}

export interface ClientAbout {
  library: string;
  library_version?: string;
  platform?: string;
  [key: string]: unknown;
}

export interface SendTextOptions {
  run_immediately?: boolean;
  audio_response?: boolean;
}

/** Short random ids, as the Pipecat client makes them. */
export function messageId(): string {
  return Math.random().toString(36).slice(2, 10).padEnd(8, '0');
}

export function rtvi<D>(type: string, data?: D, id: string = messageId()): RTVIMessage<D> {
  return data === undefined ? { label: RTVI_LABEL, type, id } : { label: RTVI_LABEL, type, id, data };
}

export function clientReadyMessage(about: ClientAbout, id?: string): RTVIMessage {
  return rtvi('client-ready', { version: RTVI_PROTOCOL_VERSION, about }, id);
}

export function sendTextMessage(
  content: string,
  options: SendTextOptions = { run_immediately: true, audio_response: true },
): RTVIMessage {
  return rtvi('send-text', { content, options });
}

export function clientMessage(t: string, d?: unknown): RTVIMessage {
  return rtvi('client-message', d === undefined ? { t } : { t, d });
}

/** A parsed JSON value is an RTVI message when it is an object labelled 'rtvi-ai' with a type. */
export function isRTVIMessage(value: unknown): value is RTVIMessage {
  if (!value || typeof value !== 'object') return false;
  const { label, type } = value as { label?: unknown; type?: unknown };
  return label === RTVI_LABEL && typeof type === 'string';
}
