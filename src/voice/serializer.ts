import { pipecat } from './gen/frames.js';
import { isRTVIMessage, type RTVIMessage } from './rtvi';

/**
 * The wire format behind an interface (Pipecat's habit): the transport only knows "message in,
 * bytes out" and the reverse, so a test or another framing can be injected.
 */
export type DeserializedFrame =
  | { kind: 'message'; msg: RTVIMessage }
  | { kind: 'audio'; pcm: Int16Array; sampleRate: number; numChannels: number }
  | { kind: 'interruption' }
  | { kind: 'text'; text: string }
  | { kind: 'transcription'; text: string; userId: string; timestamp: string }
  | { kind: 'ignored'; reason: string };

export interface FrameSerializer {
  serializeMessage(msg: RTVIMessage): Uint8Array;
  /** Microphone audio: 16-bit PCM. */
  serializeAudio(pcm: Int16Array, sampleRate: number, numChannels: number): Uint8Array;
  /** Throws when the bytes are not a frame at all; returns 'ignored' for frames not meant for us. */
  deserialize(data: Uint8Array): DeserializedFrame;
}

/** Outgoing microphone audio (spec section 3): an AudioRawFrame named 'audio', no pts. */
export const MIC_FRAME_NAME = 'audio';

/** Int16 little-endian PCM from frame bytes (copied: the decoded bytes may be unaligned). */
export function pcmFromBytes(bytes: Uint8Array): Int16Array {
  const samples = bytes.byteLength >> 1;
  const pcm = new Int16Array(samples);
  const view = new DataView(bytes.buffer, bytes.byteOffset, samples * 2);
  for (let i = 0; i < samples; i++) pcm[i] = view.getInt16(i * 2, true);
  return pcm;
}

export function bytesFromPcm(pcm: Int16Array): Uint8Array {
  const bytes = new Uint8Array(pcm.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i] ?? 0, true);
  return bytes;
}

/** Pipecat's protobuf framing (proto/frames.proto, compiled into ./gen). */
export class ProtobufFrameSerializer implements FrameSerializer {
  serializeMessage(msg: RTVIMessage): Uint8Array {
    return pipecat.Frame.encode({ message: { data: JSON.stringify(msg) } }).finish();
  }

  serializeAudio(pcm: Int16Array, sampleRate: number, numChannels: number): Uint8Array {
    return pipecat.Frame.encode({
      audio: { id: 0, name: MIC_FRAME_NAME, audio: bytesFromPcm(pcm), sampleRate, numChannels },
    }).finish();
  }

  deserialize(data: Uint8Array): DeserializedFrame {
    const frame = pipecat.Frame.decode(data);
    switch (frame.frame) {
      case 'audio': {
        const audio = frame.audio!;
        return {
          kind: 'audio',
          pcm: pcmFromBytes(audio.audio ?? new Uint8Array()),
          sampleRate: audio.sampleRate ?? 0,
          numChannels: audio.numChannels || 1,
        };
      }
      case 'message': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(frame.message?.data ?? '');
        } catch {
          throw new Error('Malformed RTVI message: not JSON');
        }
        return isRTVIMessage(parsed) ? { kind: 'message', msg: parsed } : { kind: 'ignored', reason: 'not an rtvi-ai message' };
      }
      case 'interruption':
        return { kind: 'interruption' };
      case 'text':
        return { kind: 'text', text: frame.text?.text ?? '' };
      case 'transcription':
        return {
          kind: 'transcription',
          text: frame.transcription?.text ?? '',
          userId: frame.transcription?.userId ?? '',
          timestamp: frame.transcription?.timestamp ?? '',
        };
      default:
        return { kind: 'ignored', reason: 'unknown frame kind' };
    }
  }
}
