/**
 * RTVI: the JSON messages that ride inside the `message` frames of the voice assistant's websocket
 * (docs/voice-protocol.md). The envelope is the same in both directions; what each side sends is
 * listed in that document.
 */
export const RTVI_LABEL = 'rtvi-ai';
export const RTVI_PROTOCOL_VERSION = '2.1.0';

export interface RTVIMessage<D = unknown> {
  label: typeof RTVI_LABEL;
  type: string;
  id?: string;
  data?: D;
}

/** A parsed JSON value is an RTVI message when it is an object labelled 'rtvi-ai' with a type. */
export function isRTVIMessage(value: unknown): value is RTVIMessage {
  if (!value || typeof value !== 'object') return false;
  const { label, type } = value as { label?: unknown; type?: unknown };
  return label === RTVI_LABEL && typeof type === 'string';
}
