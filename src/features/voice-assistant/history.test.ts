import { QueryClient } from '@tanstack/react-query';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureApi } from '../../api/http';
import { handlers } from '../../mocks/handlers';
import { voiceClearConversationHandler, voiceConversationHandler, voiceTurnsFixture } from '../../mocks/voice';
import { applyMessage } from './conversation';
import { clearKeptConversation, dismissRecap, loadConversation, offeredRecap } from './history';
import { attachVoiceAssistant } from './service';
import { resetState, state } from './store';
import { rtvi } from '../../voice-transport/rtvi';

const server = setupServer(...handlers);
const book = '3f0c9a52-7d2e-4c1b-9a5e-2b8d6f4e1a01';

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost' });
});
beforeEach(() => {
  attachVoiceAssistant(new QueryClient());
  resetState();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the kept conversation on the page', () => {
  it('opening a book shows its kept turns with their modes and evidence, and the recap the server offers', async () => {
    server.use(
      voiceConversationHandler({ turns: voiceTurnsFixture(), recap: { text: 'Previously…', rested_minutes: 95 } }),
    );
    await loadConversation(book);
    expect(state.transcript.map((t) => [t.speaker, t.mode, t.final])).toEqual([
      ['user', 'xray', true],
      ['bot', 'xray', true],
      ['bot', 'tutor', true],
    ]);
    expect(state.transcript[1]!.evidence).toEqual({
      text: 'He had the eye of a vulture.',
      where: 'in chapter 1, about 10 seconds in',
      positionSeconds: 10,
    });
    expect(offeredRecap()).toEqual({ text: 'Previously…', restedMinutes: 95 });
    // The recap stays the server's answer (in the data cache), never copied into the page state.
    expect(state).not.toHaveProperty('recap');
    expect(JSON.stringify(state)).not.toContain('Previously…');
    // The same book again: nothing reloaded, the live turns stay.
    state.transcript.push({ id: 99, speaker: 'user', text: 'Who is he?', final: true, at: 0 });
    await loadConversation(book);
    expect(state.transcript).toHaveLength(4);
    // Dismissed (or heard): no longer offered.
    dismissRecap();
    expect(offeredRecap()).toBeNull();
  });

  it('an answer’s evidence arrives right after its text and joins that turn', async () => {
    applyMessage(rtvi('bot-llm-text', { text: 'Nell found it.' }), { stopPlayback: () => {}, fatal: () => {} });
    applyMessage(
      rtvi('server-message', {
        t: 'evidence',
        d: { text: 'Nell found a tin box.', where: 'in chapter 1', position_seconds: 40 },
      }),
      { stopPlayback: () => {}, fatal: () => {} },
    );
    expect(state.transcript[0]!.evidence).toEqual({
      text: 'Nell found a tin box.',
      where: 'in chapter 1',
      positionSeconds: 40,
    });
  });

  it('"Clear conversation" asks the server to forget it, then empties the page', async () => {
    server.use(voiceConversationHandler({ turns: voiceTurnsFixture() }));
    const deleted: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'DELETE') deleted.push(new URL(request.url).pathname);
    });
    await loadConversation(book);
    await clearKeptConversation();
    expect(deleted).toEqual([`/api/v1/voice-assistant/conversations/${book}`]);
    expect(state.transcript).toEqual([]);
    expect(offeredRecap()).toBeNull();
    server.events.removeAllListeners();

    // When the server cannot forget it, the page says so and keeps showing it.
    state.transcript.push({ id: 7, speaker: 'user', text: 'Who is Crane?', final: true, at: 0 });
    server.use(voiceClearConversationHandler({ status: 500 }));
    await clearKeptConversation();
    expect(state.error).toMatch(/^Failed to clear the conversation/u);
    expect(state.transcript).toHaveLength(1);
  });
});
