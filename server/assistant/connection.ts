/**
 * One client connection to the voice assistant: the RTVI protocol over protobuf frames, typed
 * questions, microphone audio with voice activity detection (./microphone.ts), barge-in, and spoken answers.
 */
import { randomUUID } from 'node:crypto';
import type { Brain, CallTool } from './brain';
import { MIC_SAMPLE_RATE } from '../../proto/audio';
import { answerClientMessage } from './client-messages';
import { Microphone } from './microphone';
import { RTVI_PROTOCOL_VERSION, type RTVIMessage } from '../../proto/rtvi';
import { MalformedFrameError, decodeFrame, encodeMessage, isCompatibleVersion } from './protocol';
import { Speaker, type Synthesizer } from './speaker';
import type { VoiceSession } from './sessions';
import { TOOL_NAMES, ToolError, type ToolName, type Toolbox } from './tools';

/** What the listener reads when an answer failed on the server's side (the cause goes to the log). */
export const ASSISTANT_FAILED =
  "The assistant couldn't answer that just now (a problem on Lectio's side, not your question). Please ask again.";

export const OFFLINE_SPEECH_REPLY =
  "I can't understand speech offline yet. Please type your question in the box below.";

/** Speech-to-text of one utterance (16 kHz mono PCM); null when nothing was recognised. */
export type SpeechToText = (pcm: Int16Array, sampleRate: number, signal: AbortSignal) => Promise<string | null>;

/**
 * Why the assistant ends a connection; the HTTP edge turns each into a websocket close code
 * (docs/voice-protocol.md#connection-rules).
 */
export type ConnectionEnd =
  /** The user's session was stopped. */
  | 'stopped'
  /** The user's session was replaced by one of another mode or book. */
  | 'switched'
  /** The server is shutting down: the client should come back. */
  | 'restarting'
  /** The user has no session to join. */
  | 'not-running'
  /** The client asked to end it (disconnect-bot). */
  | 'client';

/** The socket as the connection needs it: the edge sends frames and closes it for a reason. */
export interface VoiceSocket {
  send(data: Uint8Array): void;
  end(why: ConnectionEnd): void;
}

export interface ConnectionDeps {
  socket: VoiceSocket;
  session: VoiceSession;
  toolbox: Toolbox;
  brain: (io: { callTool: CallTool; notify: (t: string, d: unknown) => void }) => Brain;
  synthesize: Synthesizer;
  speechToText: SpeechToText | null;
  /** The client's explicit listening positions per job (shared with the toolbox). */
  positions: Map<string, number>;
  /** Keeps a turn of the conversation (the session's book and mode); absent: nothing is kept. */
  record?: (turn: RecordedTurn) => void;
  log?: { warn(obj: unknown, msg?: string): void };
}

/** A turn as the connection hands it to the conversation's keeper. */
export interface RecordedTurn {
  speaker: 'reader' | 'assistant';
  text: string;
  evidence?: { text: string; where: string; position_seconds: number } | null;
  tutorQuestion?: string | null;
}

/** Tutor moves that put a new discussion question. */
const ASKS = new Set(['opening', 'next_question']);

export class VoiceConnection {
  private readonly speaker: Speaker;
  private readonly brain: Brain;
  private readonly microphone: Microphone;
  private turn = 0;
  private closed = false;
  private ready = false;
  private stt: AbortController | null = null;
  /** What the tools of the current turn gave: the passage an answer rests on, the tutor's question. */
  private turnEvidence: RecordedTurn['evidence'] = null;
  private turnQuestion: string | null = null;

  constructor(private readonly deps: ConnectionDeps) {
    this.speaker = new Speaker(
      { send: (frame) => this.send(frame), message: (type, data) => this.message(type, data) },
      deps.synthesize,
    );
    this.brain = deps.brain({ callTool: this.callTool, notify: (t, d) => this.serverMessage(t, d) });
    this.microphone = new Microphone({
      started: () => {
        this.message('user-started-speaking');
        this.interruptBot();
      },
      stopped: (utterance) => {
        this.message('user-stopped-speaking');
        void this.onUtterance(utterance);
      },
      error: (message) => this.error(message),
    });
  }

  private send(frame: Uint8Array): void {
    if (!this.closed) this.deps.socket.send(frame);
  }

  private message(type: string, data?: unknown, id?: string): void {
    this.send(encodeMessage(type, data, id));
  }

  /** An RTVI server-message (data {t, d}, the shape of client-message): see docs/voice-assistant.md. */
  serverMessage(t: string, d: unknown): void {
    this.message('server-message', { t, d });
  }

  private error(error: string, fatal = false): void {
    this.message('error', { error, fatal });
  }

  /** Handles one websocket message. */
  handle(data: Uint8Array, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary) {
      this.error('Malformed frame: expected a binary protobuf Frame, got a text message');
      return;
    }
    let frame: ReturnType<typeof decodeFrame>;
    try {
      frame = decodeFrame(data);
    } catch (error) {
      this.error(error instanceof MalformedFrameError ? error.message : `Malformed frame: ${String(error)}`);
      return;
    }
    switch (frame.kind) {
      case 'audio':
        this.microphone.hear(frame.audio, frame.sampleRate, frame.numChannels);
        return;
      case 'message':
        this.onMessage(frame.message);
        return;
      default:
        // Text, transcription and interruption frames from a client carry nothing we act on.
        return;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.turn += 1;
    this.speaker.interrupt();
    this.stt?.abort();
    this.microphone.close();
  }

  // -------------------------------------------------------------------------------------------
  // RTVI messages

  private onMessage(m: RTVIMessage): void {
    const data = m.data !== null && typeof m.data === 'object' ? (m.data as Record<string, unknown>) : {};
    switch (m.type) {
      case 'client-ready': {
        const version = data.version;
        if (!isCompatibleVersion(version)) {
          this.message(
            'error-response',
            {
              error: `RTVI version ${String(version)} is not compatible with server protocol ${RTVI_PROTOCOL_VERSION}. Please update your client.`,
            },
            m.id,
          );
          return;
        }
        const { session } = this.deps;
        this.message(
          'bot-ready',
          {
            version: RTVI_PROTOCOL_VERSION,
            about: {
              library: 'lectio',
              library_version: '1.0.0',
              mode: session.mode,
              job_id: session.jobId,
              functions: TOOL_NAMES,
            },
          },
          m.id,
        );
        if (!this.ready) {
          this.ready = true;
          void this.opening();
        }
        return;
      }
      case 'disconnect-bot':
        this.deps.socket.end('client');
        this.close();
        return;
      case 'client-message':
        answerClientMessage(
          { session: this.deps.session, positions: this.deps.positions, message: (...args) => this.message(...args) },
          m.id,
          data,
        );
        return;
      case 'send-text': {
        const content = data.content;
        if (typeof content !== 'string' || content.trim() === '') {
          this.message('error-response', { error: 'send-text needs a non-empty string content' }, m.id);
          return;
        }
        const options =
          data.options !== null && typeof data.options === 'object' ? (data.options as Record<string, unknown>) : {};
        void this.respond(content, options.audio_response !== false);
        return;
      }
      case 'llm-function-call-result':
        // The server runs its tools itself; results from the client are not needed.
        return;
      default:
        this.message('error-response', { error: `Unsupported type ${m.type}` }, m.id);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Answers

  private readonly callTool: CallTool = async (name: ToolName, args) => {
    const toolCallId = `call_${randomUUID().slice(0, 8)}`;
    this.message('llm-function-call-started', { function_name: name });
    this.message('llm-function-call-in-progress', { tool_call_id: toolCallId, function_name: name, arguments: args });
    try {
      const result = await this.deps.toolbox.call(name, args);
      this.message('llm-function-call-stopped', {
        tool_call_id: toolCallId,
        function_name: name,
        cancelled: false,
        result: result.data,
      });
      // "Continue X": the client opens the player at the book's position.
      if (result.data.open_book !== undefined) this.serverMessage('open-book', result.data.open_book);
      const evidence = result.data.evidence as RecordedTurn['evidence'] | undefined;
      if (evidence) this.turnEvidence = evidence;
      // The tutor's discussion questions (not its follow-ups) are kept, so none is asked twice.
      if (name === 'tutor_turn' && typeof result.data.question === 'string' && ASKS.has(String(result.data.kind)))
        this.turnQuestion = result.data.question;
      return result;
    } catch (error) {
      this.message('llm-function-call-stopped', {
        tool_call_id: toolCallId,
        function_name: name,
        cancelled: false,
        result: { error: error instanceof Error ? error.message : String(error) },
      });
      throw error;
    }
  };

  private async opening(): Promise<void> {
    const turn = ++this.turn;
    try {
      this.turnEvidence = null;
      this.turnQuestion = null;
      const text = await this.brain.opening();
      if (text === null || turn !== this.turn || this.closed) return;
      this.message('bot-llm-started');
      this.message('bot-llm-text', { text });
      this.message('bot-llm-stopped');
      this.deps.record?.({ speaker: 'assistant', text, tutorQuestion: this.turnQuestion });
      await this.speaker.say(text);
    } catch (error) {
      this.deps.log?.warn({ err: error }, 'voice assistant opening failed');
    }
  }

  /**
   * Stops bot speech now and tells the client the RTVI way: `bot-interrupted` is a message every
   * RTVI client may ignore, where an interruption frame would be unknown to clients that only know
   * the text, audio, transcription and message frames.
   */
  private interruptBot(): void {
    if (!this.speaker.busy) return;
    const wasSpeaking = this.speaker.interrupt();
    this.message('bot-interrupted');
    if (wasSpeaking) this.message('bot-stopped-speaking');
    this.message('bot-tts-stopped');
  }

  /** Answers one user message (typed, or transcribed speech). */
  async respond(text: string, speak = true): Promise<void> {
    this.interruptBot();
    const turn = ++this.turn;
    this.message('user-llm-text', { text });
    this.message('bot-llm-started');
    this.turnEvidence = null;
    this.turnQuestion = null;
    this.deps.record?.({ speaker: 'reader', text });
    let answer: string;
    try {
      answer = await this.brain.respond(text);
    } catch (error) {
      if (error instanceof ToolError) {
        answer = `Sorry, I couldn't do that: ${error.message}.`;
      } else {
        this.deps.log?.warn({ err: error }, 'voice assistant answer failed');
        if (turn === this.turn) {
          this.message('bot-llm-stopped');
          // The listener is told what happened in their words; the cause is in the log.
          this.error(ASSISTANT_FAILED);
        }
        return;
      }
    }
    if (turn !== this.turn || this.closed) return;
    // The text goes out before any audio is made: the page shows it at once.
    this.message('bot-llm-text', { text: answer });
    this.message('bot-llm-stopped');
    if (this.turnEvidence) this.serverMessage('evidence', this.turnEvidence);
    this.deps.record?.({
      speaker: 'assistant',
      text: answer,
      evidence: this.turnEvidence,
      tutorQuestion: this.turnQuestion,
    });
    await this.speakOrShow(answer, speak);
  }

  private async speakOrShow(answer: string, speak: boolean): Promise<void> {
    if (!speak) {
      this.message('bot-output', { text: answer, aggregated_by: 'sentence', will_be_spoken: false });
      return;
    }
    try {
      await this.speaker.say(answer);
    } catch (error) {
      this.deps.log?.warn({ err: error }, 'voice assistant speech failed');
      this.message('bot-output', { text: answer, aggregated_by: 'sentence', will_be_spoken: false });
      this.error(`Speech synthesis failed: ${error instanceof Error ? error.message : String(error)}`);
      if (this.speaker.speaking) this.message('bot-stopped-speaking');
      this.message('bot-tts-stopped');
    }
  }

  // -------------------------------------------------------------------------------------------
  // Microphone audio

  private async onUtterance(audio: Int16Array): Promise<void> {
    const stt = this.deps.speechToText;
    if (stt === null) {
      // No speech-to-text engine (the offline default): say so, once per utterance.
      this.interruptBot();
      ++this.turn;
      this.message('bot-llm-text', { text: OFFLINE_SPEECH_REPLY });
      await this.speakOrShow(OFFLINE_SPEECH_REPLY, true);
      return;
    }
    this.stt?.abort();
    const controller = new AbortController();
    this.stt = controller;
    let text: string | null;
    try {
      text = await stt(audio, MIC_SAMPLE_RATE, controller.signal);
    } catch (error) {
      if (controller.signal.aborted || this.closed) return;
      this.error(`Speech recognition failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (controller.signal.aborted || this.closed || text === null || text.trim() === '') return;
    this.message('user-transcription', {
      text,
      user_id: this.deps.session.userId,
      timestamp: new Date().toISOString(),
      final: true,
    });
    await this.respond(text);
  }
}
