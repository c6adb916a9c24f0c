import { AUDIO_FRAME_NAME, bytesFromPcm, pcmFromBytes } from '../../proto/audio';
import { pipecat } from '../../proto/gen/frames.js';
import { isRTVIMessage, type RTVIMessage } from '../../proto/rtvi';

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

/** Pipecat's protobuf framing (proto/frames.proto). Microphone audio goes out as an audio frame named 'audio', without pts. */
export class ProtobufFrameSerializer implements FrameSerializer {
  serializeMessage(msg: RTVIMessage): Uint8Array {
    return pipecat.Frame.encode({ message: { data: JSON.stringify(msg) } }).finish();
  }

  serializeAudio(pcm: Int16Array, sampleRate: number, numChannels: number): Uint8Array {
    return pipecat.Frame.encode({
      audio: { id: 0, name: AUDIO_FRAME_NAME, audio: bytesFromPcm(pcm), sampleRate, numChannels },
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
        return isRTVIMessage(parsed)
          ? { kind: 'message', msg: parsed }
          : { kind: 'ignored', reason: 'not an rtvi-ai message' };
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
