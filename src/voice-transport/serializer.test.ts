import { describe, expect, it } from 'vitest';
import { bytesFromPcm, pcmFromBytes } from '../../proto/audio';
import { pipecat } from '../../proto/gen/frames.js';
import { ProtobufFrameSerializer } from './serializer';

const serializer = new ProtobufFrameSerializer();
const encode = (frame: pipecat.Frame.$Properties) => pipecat.Frame.encode(frame).finish();

describe('ProtobufFrameSerializer', () => {
  it('serializes mic audio as an AudioRawFrame named audio, 16 kHz mono, without pts', () => {
    const bytes = serializer.serializeAudio(Int16Array.of(1, -2, 32767), 16000, 1);
    const frame = pipecat.Frame.decode(bytes);
    expect(frame.frame).toBe('audio');
    expect(frame.audio).toMatchObject({ name: 'audio', sampleRate: 16000, numChannels: 1 });
    expect(Object.prototype.hasOwnProperty.call(frame.audio, 'pts')).toBe(false);
    expect([...pcmFromBytes(frame.audio!.audio!)]).toEqual([1, -2, 32767]);
  });

  it('round-trips RTVI messages as JSON in a MessageFrame', () => {
    const msg = { label: 'rtvi-ai' as const, type: 'send-text', id: 'abc', data: { content: 'hi' } };
    const frame = pipecat.Frame.decode(serializer.serializeMessage(msg));
    expect(JSON.parse(frame.message!.data!)).toEqual(msg);
    expect(serializer.deserialize(serializer.serializeMessage(msg))).toEqual({ kind: 'message', msg });
  });

  it("passes on only messages labelled 'rtvi-ai'", () => {
    const other = encode({ message: { data: JSON.stringify({ label: 'other', type: 'bot-ready' }) } });
    expect(serializer.deserialize(other).kind).toBe('ignored');
    expect(() => serializer.deserialize(encode({ message: { data: 'nope{' } }))).toThrow('not JSON');
  });

  it('decodes bot audio (unaligned bytes), interruption, text and transcription frames', () => {
    expect(
      serializer.deserialize(
        encode({ audio: { audio: bytesFromPcm(Int16Array.of(5, -5)), sampleRate: 24000, numChannels: 1 } }),
      ),
    ).toMatchObject({
      kind: 'audio',
      sampleRate: 24000,
      numChannels: 1,
      pcm: Int16Array.of(5, -5),
    });
    expect(serializer.deserialize(encode({ interruption: {} }))).toEqual({ kind: 'interruption' });
    expect(serializer.deserialize(encode({ text: { text: 'hello' } }))).toEqual({ kind: 'text', text: 'hello' });
    expect(serializer.deserialize(encode({ transcription: { text: 'hi', userId: 'u', timestamp: 't' } }))).toEqual({
      kind: 'transcription',
      text: 'hi',
      userId: 'u',
      timestamp: 't',
    });
    expect(serializer.deserialize(new Uint8Array()).kind).toBe('ignored');
    expect(() => serializer.deserialize(Uint8Array.of(0x0a, 0xff))).toThrow();
  });
});
