/**
 * The conversation as the page shows it: RTVI messages from the assistant turned into transcript
 * turns and the flags of the talk button (thinking, speaking), the offline notice and the books
 * the assistant asks to open (docs/voice-assistant.md#the-page). No I/O: the connection hands
 * each message in, with what to do about audio and fatal errors.
 */
import type { RTVIMessage } from '../../voice-transport/index';
import { runtime, state, type OpenBookRequest, type TranscriptEntry } from './store';

/** What a message may ask of the live connection. */
export interface ConversationIO {
  /** Drop the bot audio queued for playback (barge-in). */
  stopPlayback(): void;
  /** A fatal error: the connection ends with this message. */
  fatal(message: string): void;
}

/** A new conversation: no turns, no notice, nothing pending. */
export function clearConversation(): void {
  state.transcript = [];
  resetTurn();
}

/** Nothing pending and no notice, the turns kept (a reconnect carries on the conversation). */
export function resetTurn(): void {
  state.fallback = null;
  state.openBook = null;
  runtime.turnOffline = false;
  runtime.pendingOpenBook = null;
}

/** A question is out: the answer to come is not known to be offline yet. */
export function newTurn(): void {
  state.thinking = true;
  runtime.turnOffline = false;
  runtime.pendingOpenBook = null;
}

/** The reader's typed question joins the transcript (the answer to the previous one is complete). */
export function addQuestion(text: string): void {
  finishTurn('bot');
  newTurn();
  state.transcript.push({
    id: runtime.nextEntryId++,
    speaker: 'user',
    text,
    final: true,
    at: Date.now(),
    mode: state.mode,
  });
}

/** A fresh id for a transcript entry (kept turns loaded from the server get one too). */
export function entryId(): number {
  return runtime.nextEntryId++;
}

function lastEntry(speaker: 'user' | 'bot'): TranscriptEntry | undefined {
  const last = state.transcript[state.transcript.length - 1];
  return last && last.speaker === speaker && !last.final ? last : undefined;
}

/** The open turn of `speaker`, if any, is complete. */
export function finishTurn(speaker: 'user' | 'bot'): void {
  const open = lastEntry(speaker);
  if (open) open.final = true;
}

function textOf(msg: RTVIMessage): string {
  const text = (msg.data as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

/** Applies one RTVI message from the assistant to the conversation. */
export function applyMessage(msg: RTVIMessage, io: ConversationIO): void {
  switch (msg.type) {
    case 'user-transcription': {
      const data = (msg.data ?? {}) as { text?: unknown; final?: unknown };
      const text = typeof data.text === 'string' ? data.text : '';
      if (!text) return;
      finishTurn('bot');
      const open = lastEntry('user');
      if (open) {
        open.text = text;
        open.final = data.final === true;
      } else {
        state.transcript.push({
          id: runtime.nextEntryId++,
          speaker: 'user',
          text,
          final: data.final === true,
          at: Date.now(),
          mode: state.mode,
        });
      }
      return;
    }
    case 'bot-llm-text': {
      const text = textOf(msg);
      if (!text) return;
      finishTurn('user');
      // The answer exists: it is shown now, whether or when its audio follows.
      state.thinking = false;
      const open = lastEntry('bot');
      if (open) open.text += text;
      else
        state.transcript.push({
          id: runtime.nextEntryId++,
          speaker: 'bot',
          text: text.trimStart(),
          final: false,
          at: Date.now(),
          mode: state.mode,
        });
      const entry = lastEntry('bot');
      if (entry && runtime.turnOffline) entry.offline = true;
      if (entry && runtime.pendingOpenBook) {
        entry.openBook = runtime.pendingOpenBook;
        runtime.pendingOpenBook = null;
      }
      return;
    }
    case 'bot-llm-stopped':
      finishTurn('bot');
      // An answer the chat model gave itself: the offline notice has served its turn.
      if (!runtime.turnOffline) state.fallback = null;
      return;
    case 'user-started-speaking':
      state.userSpeaking = true;
      return;
    case 'user-stopped-speaking':
      state.userSpeaking = false;
      newTurn();
      return;
    case 'bot-started-speaking':
      // "Speaking" is what the page really plays (the audio's own report), not what the server sends.
      state.thinking = false;
      return;
    case 'bot-output':
    case 'bot-tts-stopped':
      // Shown rather than spoken, or speech ended: nothing more is coming for this turn.
      state.thinking = false;
      return;
    case 'bot-interrupted':
      io.stopPlayback();
      state.botSpeaking = false;
      state.thinking = false;
      finishTurn('bot');
      return;
    case 'server-message':
      onServerMessage(msg.data);
      return;
    case 'error':
    case 'error-response': {
      // A fatal bot error ends the session; an answer to one bad request only shows its message.
      const data = (msg.data ?? {}) as { error?: unknown; fatal?: unknown };
      const message = typeof data.error === 'string' ? data.error : 'Voice assistant error';
      state.thinking = false;
      if (msg.type === 'error' && data.fatal === true) io.fatal(message);
      else state.error = message;
      return;
    }
  }
}

/** RTVI server-message {t, d}: `assistant-fallback` and `open-book` (docs/voice-assistant.md). */
function onServerMessage(data: unknown): void {
  const { t, d } = (data ?? {}) as { t?: unknown; d?: unknown };
  const body = (d !== null && typeof d === 'object' ? d : {}) as Record<string, unknown>;
  if (t === 'assistant-fallback') {
    const message =
      typeof body.message === 'string' && body.message.trim() ? body.message : 'The offline assistant is answering.';
    state.fallback = { reason: typeof body.reason === 'string' ? body.reason : '', message };
    runtime.turnOffline = true;
    const open = lastEntry('bot');
    if (open) open.offline = true;
    return;
  }
  if (t === 'evidence') {
    // The passage the answer just given rests on.
    const { text, where, position_seconds: position } = body;
    const answer = [...state.transcript].reverse().find((entry) => entry.speaker === 'bot');
    if (answer && typeof text === 'string' && typeof where === 'string' && typeof position === 'number')
      answer.evidence = { text, where, positionSeconds: Math.max(0, position) };
    return;
  }
  if (t === 'open-book') {
    const { job_id: jobId, title, position_seconds: position } = body;
    if (typeof jobId !== 'string' || !jobId) return;
    const request: OpenBookRequest = {
      jobId,
      title: typeof title === 'string' && title ? title : 'your book',
      positionSeconds: typeof position === 'number' && Number.isFinite(position) && position >= 0 ? position : 0,
    };
    state.openBook = { ...request, seq: runtime.nextOpenBook++ };
    const open = lastEntry('bot');
    if (open) open.openBook = request;
    else runtime.pendingOpenBook = request;
  }
}
