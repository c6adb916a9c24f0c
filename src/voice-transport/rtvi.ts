/**
 * The RTVI messages the client itself builds (docs/voice-protocol.md). The envelope is shared with
 * the server (proto/rtvi.ts); everything the server sends is passed on as an RTVIMessage for
 * the caller to read by `type`.
 */
import { RTVI_LABEL, RTVI_PROTOCOL_VERSION, type RTVIMessage } from '../../proto/rtvi';

export type { RTVIMessage } from '../../proto/rtvi';

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
