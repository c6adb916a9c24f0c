/**
 * The server's side of the voice assistant's wire format (docs/voice-protocol.md): every websocket
 * message is one binary protobuf `pipecat.Frame`; RTVI messages travel as JSON inside a
 * MessageFrame. The frames, the RTVI envelope and the PCM helpers are shared with the SPA in
 * proto/; this module adds the strict decoding a server needs for frames it cannot trust.
 */
import { AUDIO_FRAME_NAME, BOT_SAMPLE_RATE } from '../../proto/audio';
import { pipecat } from '../../proto/gen/frames.js';
import { RTVI_LABEL, type RTVIMessage } from '../../proto/rtvi';
/** Major versions of the RTVI protocol the server accepts (1 is the legacy one Pipecat still takes). */
export const COMPATIBLE_MAJOR_VERSIONS = [1, 2] as const;

/** Bot audio goes out in 40 ms frames: 960 samples, 1920 bytes at 24 kHz mono 16-bit. */
export const OUTPUT_FRAME_MS = 40;
export const OUTPUT_FRAME_SAMPLES = (BOT_SAMPLE_RATE * OUTPUT_FRAME_MS) / 1000;

export type DecodedFrame =
  | { kind: 'audio'; audio: Uint8Array; sampleRate: number; numChannels: number }
  | { kind: 'message'; message: RTVIMessage }
  | { kind: 'text'; text: string }
  | { kind: 'transcription'; text: string }
  | { kind: 'interruption' }
  | { kind: 'other'; reason: string };

export class MalformedFrameError extends Error {
  constructor(reason: string) {
    super(`Malformed frame: ${reason}`);
    this.name = 'MalformedFrameError';
  }
}

function parseRtvi(json: string): RTVIMessage | { ignored: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new MalformedFrameError('the message frame does not hold JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new MalformedFrameError('the message frame does not hold a JSON object');
  }
  const m = parsed as Record<string, unknown>;
  if (m.label !== RTVI_LABEL) return { ignored: `label ${JSON.stringify(m.label)}` };
  if (typeof m.type !== 'string' || m.type === '') throw new MalformedFrameError('the RTVI message has no type');
  if (m.id !== undefined && typeof m.id !== 'string')
    throw new MalformedFrameError('the RTVI message id is not a string');
  return {
    label: RTVI_LABEL,
    type: m.type,
    ...(typeof m.id === 'string' && { id: m.id }),
    ...(m.data !== undefined && { data: m.data }),
  };
}

/** Decodes one websocket message; throws MalformedFrameError when it is not a usable Frame. */
export function decodeFrame(bytes: Uint8Array): DecodedFrame {
  let frame: ReturnType<typeof pipecat.Frame.decode>;
  try {
    frame = pipecat.Frame.decode(bytes);
  } catch (error) {
    throw new MalformedFrameError(error instanceof Error ? error.message : String(error));
  }
  switch (frame.frame) {
    case 'audio': {
      const a = frame.audio;
      return {
        kind: 'audio',
        audio: a.audio ?? new Uint8Array(),
        sampleRate: a.sampleRate ?? 0,
        numChannels: a.numChannels ?? 0,
      };
    }
    case 'message': {
      const parsed = parseRtvi(frame.message.data ?? '');
      return 'ignored' in parsed ? { kind: 'other', reason: parsed.ignored } : { kind: 'message', message: parsed };
    }
    case 'text':
      return { kind: 'text', text: frame.text.text ?? '' };
    case 'transcription':
      return { kind: 'transcription', text: frame.transcription.text ?? '' };
    case 'interruption':
      return { kind: 'interruption' };
    default:
      throw new MalformedFrameError('the frame is empty (no text, audio, transcription, message or interruption)');
  }
}

export function encodeMessage(type: string, data?: unknown, id?: string): Uint8Array {
  const message: RTVIMessage = {
    label: RTVI_LABEL,
    type,
    ...(id !== undefined && { id }),
    ...(data !== undefined && { data }),
  };
  return pipecat.Frame.encode({ message: { data: JSON.stringify(message) } }).finish();
}

/** A frame of 16-bit mono PCM. */
export function encodeAudio(pcm: Int16Array, sampleRate: number, name = AUDIO_FRAME_NAME): Uint8Array {
  const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  return pipecat.Frame.encode({ audio: { id: 0, name, audio: bytes, sampleRate, numChannels: 1 } }).finish();
}

/** Whether the client's `client-ready` version is one the server speaks. */
export function isCompatibleVersion(version: unknown): boolean {
  if (version === undefined) return true;
  if (typeof version !== 'string') return false;
  const major = Number(version.split('.')[0]);
  return (COMPATIBLE_MAJOR_VERSIONS as readonly number[]).includes(major);
}
