import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rtvi } from '../../voice-transport/rtvi';
import { addQuestion, applyMessage, clearConversation } from './conversation';
import { resetState, state, talkState } from './store';

const io = { stopPlayback: vi.fn(), fatal: vi.fn() };
const apply = (type: string, data?: unknown) => applyMessage(rtvi(type, data), io);

beforeEach(() => {
  resetState({ clientStatus: 'connected', micEnabled: true });
  clearConversation();
  io.stopPlayback.mockClear();
  io.fatal.mockClear();
});

describe('the conversation from the assistant’s messages', () => {
  it('a typed question, then the answer streamed in pieces, is two turns; the answer ends on bot-llm-stopped', () => {
    addQuestion('Who is Mara?');
    expect(talkState(state)).toBe('thinking');
    apply('bot-llm-started');
    apply('bot-llm-text', { text: 'Mara keeps ' });
    apply('bot-llm-text', { text: 'the lighthouse.' });
    expect(state.transcript.map((t) => [t.speaker, t.text, t.final])).toEqual([
      ['user', 'Who is Mara?', true],
      ['bot', 'Mara keeps the lighthouse.', false],
    ]);
    apply('bot-llm-stopped');
    expect(state.transcript[1]!.final).toBe(true);
  });

  it('"Speaking" is what really plays: the answer text ends "Thinking", the server saying it speaks is not enough', () => {
    addQuestion('Where are we?');
    apply('bot-llm-text', { text: 'At Saltmarsh Cove.' });
    expect(talkState(state)).toBe('listening');
    apply('bot-started-speaking');
    expect(talkState(state)).toBe('listening');
    // The audio reports it plays (store.ts wires AudioIO.onPlaying here).
    state.botSpeaking = true;
    expect(talkState(state)).toBe('speaking');
    apply('bot-interrupted');
    expect(io.stopPlayback).toHaveBeenCalledTimes(1);
    expect(talkState(state)).toBe('listening');
  });

  it('a spoken question arrives as partial then final transcription in one turn', () => {
    apply('user-transcription', { text: 'who is', final: false });
    apply('user-transcription', { text: 'who is Tobias', final: true });
    expect(state.transcript.map((t) => [t.text, t.final])).toEqual([['who is Tobias', true]]);
  });

  it('assistant-fallback marks the turn offline and shows the notice; open-book is attached to the answer', () => {
    addQuestion('continue my book');
    apply('server-message', { t: 'assistant-fallback', d: { reason: 'timeout', message: 'Offline now.' } });
    apply('server-message', { t: 'open-book', d: { job_id: 'b1', title: 'The Keeper', position_seconds: 12 } });
    apply('bot-llm-text', { text: 'Continuing The Keeper.' });
    expect(state.fallback).toEqual({ reason: 'timeout', message: 'Offline now.' });
    expect(state.transcript[1]).toMatchObject({
      offline: true,
      openBook: { jobId: 'b1', title: 'The Keeper', positionSeconds: 12 },
    });
    expect(state.openBook).toMatchObject({ jobId: 'b1' });
  });

  it('a fatal error ends the connection; an error-response only shows its message', () => {
    apply('error-response', { error: 'send-text needs a non-empty string content' });
    expect(state.error).toBe('send-text needs a non-empty string content');
    expect(io.fatal).not.toHaveBeenCalled();
    apply('error', { error: 'The assistant stopped', fatal: true });
    expect(io.fatal).toHaveBeenCalledWith('The assistant stopped');
  });
});
