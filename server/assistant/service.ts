/**
 * The voice assistant service: per-user sessions, the connections of their sockets and the engines
 * (offline by default; OpenAI when configured). The websocket itself (upgrade, Origin, token,
 * close codes) is the HTTP edge's (server/routes/voice-socket.ts): it hands this service a
 * `VoiceSocket` per authenticated socket, and maps each `ConnectionEnd` to its close code.
 */
import { offlineVoiceFor } from '../tts/espeak';
import type { TtsEngine } from '../tts/types';
import { resample, warmUpAudio } from './audio';
import type { BookSource } from './books';
import type { ListeningHistory } from './library';
import type { TutorState } from './tutor';
import { BookIndexCache } from './heard-index';
import { createOfflineBrain, type Brain, type CallTool } from './brain';
import {
  VoiceConnection,
  type ConnectionEnd,
  type RecordedTurn,
  type SpeechToText,
  type VoiceSocket,
} from './connection';
import { BOT_SAMPLE_RATE } from '../../proto/audio';
import { createVoiceSessions, type VoiceSession, type VoiceSessions } from './sessions';
import type { Synthesizer } from './speaker';
import { TOOL_NAMES, createToolbox, type Toolbox } from './tools';
import { historyFromBooks } from './library';
import { memoryConversations, type ConversationRepository, type ConversationTurn } from './conversations';
import { DomainError } from '../errors';

export type { ConnectionEnd, VoiceSocket };

/** An alternative engine set (the OpenAI one, see openai.ts). */
export interface AssistantEngines {
  synthesize: Synthesizer;
  speechToText: SpeechToText | null;
  /** Whether a chat model answers (false: the offline brain answers everything). */
  chatModel: boolean;
  brain(context: {
    session: VoiceSession;
    toolbox: Toolbox;
    callTool: CallTool;
    /** Sends the client an RTVI server-message {t, d} (e.g. that the offline brain answered). */
    notify: (t: string, d: unknown) => void;
  }): Brain;
}

export interface VoiceAssistantDeps {
  books: BookSource;
  /** The users' playback history (default: the saved positions of `books`). */
  history?: ListeningHistory;
  /** Engines; default: the offline ones (`offlineVoice`, rule-based brain, no speech-to-text). */
  engines?: AssistantEngines;
  /** The offline voice the default engines speak with (the process's eSpeak-NG engine). */
  offlineVoice?: TtsEngine;
  log?: { warn(obj: unknown, msg?: string): void };
  now?: () => Date;
  /** Where conversations are kept (default: in memory, for tests). */
  conversations?: ConversationRepository;
  /** A book not played for this long is offered a recap (RECAP_AFTER_MINUTES; default 30). */
  recapAfterMinutes?: number;
}

/** The kept conversation about a book, and the recap it offers after a break. */
export interface KeptConversation {
  turns: ConversationTurn[];
  recap: { text: string; restedMinutes: number } | null;
}

/** One socket's conversation, as the edge drives it. */
export interface VoiceLink {
  /** One websocket message. */
  receive(data: Uint8Array, isBinary: boolean): void;
  /** The socket has closed. */
  closed(): void;
}

export interface VoiceAssistant {
  readonly sessions: VoiceSessions;
  readonly books: BookSource;
  /** The names of the tools the assistant answers with (the wire's `mcp_functions`). */
  readonly toolNames: readonly string[];
  /** Whether it turns the microphone's audio into text (a speech service is configured). */
  readonly hearsSpeech: boolean;
  /** Whether a chat model answers (else the offline brain answers everything). */
  readonly hasChatModel: boolean;
  /** Loads the speech engine and audio WASM in the background (the first answer is then fast). */
  warmUp(): Promise<void>;
  /**
   * A socket authenticated as `userId` joins the user's session. Null when the user has no
   * session: the socket was then ended with 'not-running'.
   */
  connect(userId: string, socket: VoiceSocket, options?: { position?: number | null }): VoiceLink | null;
  /** The user's conversation about a book; DomainError not_found when it is not their finished book. */
  conversation(userId: string, jobId: string): Promise<KeptConversation>;
  /** Clears it (not_found as above). */
  clearConversation(userId: string, jobId: string): Promise<void>;
  /** Open connections of a user (for tests). */
  connectionCount(userId: string): number;
  /** Open voice connections in this process, all users. */
  openConnections(): number;
  /** Ends every connection with 'restarting' (the client reconnects), then stops the sessions. */
  close(): void;
}

/** The offline voice: eSpeak-NG at 22050 Hz, resampled to 24 kHz with the Speex resampler. */
export function offlineSynthesizer(engine: TtsEngine): Synthesizer {
  const voice = offlineVoiceFor('openai', 'alloy');
  return async (text, signal) => {
    const speech = await engine.synthesize(text, voice, signal);
    return resample(speech.samples, speech.sampleRate, BOT_SAMPLE_RATE);
  };
}

export function offlineEngines(voice: TtsEngine): AssistantEngines {
  return {
    synthesize: offlineSynthesizer(voice),
    speechToText: null,
    chatModel: false,
    brain: ({ session, callTool }) => createOfflineBrain({ mode: session.mode, jobId: session.jobId, callTool }),
  };
}

/** What a connection is made with: the service's sessions, engines, memory and open sockets. */
interface ConnectorContext {
  deps: VoiceAssistantDeps;
  sessions: VoiceSessions;
  engines: AssistantEngines;
  conversations: ConversationRepository;
  history: ListeningHistory;
  indexes: BookIndexCache;
  open: Map<string, Set<{ socket: VoiceSocket; connection: VoiceConnection }>>;
  tutorFor(session: VoiceSession): Map<string, TutorState>;
  pastQuestions(userId: string, jobId: string): Promise<string[]>;
  warmUp(): Promise<void>;
}

/** A socket joined to its user's running session: its toolbox, its conversation kept turn by turn. */
function createConnector(ctx: ConnectorContext) {
  const { deps, sessions, engines, conversations, history, indexes, open, tutorFor, pastQuestions, warmUp } = ctx;
  return function connect(
    userId: string,
    socket: VoiceSocket,
    options: { position?: number | null } = {},
  ): VoiceLink | null {
    const session = sessions.get(userId);
    if (session === null) {
      socket.end('not-running');
      return null;
    }
    const positions = new Map<string, number>();
    const position = options.position;
    if (session.jobId !== null && typeof position === 'number' && Number.isFinite(position) && position >= 0)
      positions.set(session.jobId, position);
    const toolbox = createToolbox({
      userId,
      books: deps.books,
      history,
      tutor: tutorFor(session),
      indexes,
      clientPosition: (jobId) => positions.get(jobId),
      pastQuestions: (jobId) => pastQuestions(userId, jobId),
    });
    // One conversation per user and book, each turn with its mode; kept in order, off the answer's path.
    let saving = Promise.resolve();
    const { jobId, mode } = session;
    const record =
      jobId === null || mode === null
        ? undefined
        : (turn: RecordedTurn) => {
            saving = saving
              .then(() => conversations.add({ userId, jobId, mode, ...turn }))
              .catch((error: unknown) => deps.log?.warn({ err: error }, 'voice assistant could not keep a turn'));
          };
    const connection = new VoiceConnection({
      socket,
      session,
      toolbox,
      brain: ({ callTool, notify }) => engines.brain({ session, toolbox, callTool, notify }),
      synthesize: engines.synthesize,
      speechToText: engines.speechToText,
      positions,
      ...(record && { record }),
      ...(deps.log && { log: deps.log }),
    });
    const entry = { socket, connection };
    const set = open.get(userId) ?? new Set();
    set.add(entry);
    open.set(userId, set);
    void warmUp();
    // Index the session's book up to the listener's position before the first question arrives.
    if (session.jobId !== null)
      toolbox
        .prepare(session.jobId)
        .catch((error: unknown) => deps.log?.warn({ err: error }, 'voice assistant could not index the book'));
    return {
      receive: (data, isBinary) => connection.handle(data, isBinary),
      closed() {
        connection.close();
        set.delete(entry);
        if (set.size === 0 && open.get(userId) === set) open.delete(userId);
      },
    };
  };
}

export function createVoiceAssistant(deps: VoiceAssistantDeps): VoiceAssistant {
  const sessions = createVoiceSessions({ books: deps.books, ...(deps.now && { now: deps.now }) });
  if (deps.engines === undefined && deps.offlineVoice === undefined) {
    throw new Error('The voice assistant needs its engines or the offline voice');
  }
  const engines = deps.engines ?? offlineEngines(deps.offlineVoice!);
  const conversations = deps.conversations ?? memoryConversations();
  const history = deps.history ?? historyFromBooks(deps.books);
  const now = deps.now ?? (() => new Date());
  const pastQuestions = async (userId: string, jobId: string): Promise<string[]> =>
    (await conversations.list(userId, jobId)).flatMap((t) => (t.tutorQuestion === null ? [] : [t.tutorQuestion]));
  const open = new Map<string, Set<{ socket: VoiceSocket; connection: VoiceConnection }>>();
  // A session's tutoring dialogues outlive its sockets (a reconnect carries on), not the session.
  const tutorMemory = new WeakMap<VoiceSession, Map<string, TutorState>>();
  // Book indexes shared by the connections (a reconnect finds its book indexed).
  const indexes = new BookIndexCache();
  const tutorFor = (session: VoiceSession): Map<string, TutorState> => {
    let memory = tutorMemory.get(session);
    if (memory === undefined) {
      memory = new Map();
      tutorMemory.set(session, memory);
    }
    return memory;
  };
  let warming: Promise<void> | undefined;

  function endAll(entries: Iterable<{ socket: VoiceSocket; connection: VoiceConnection }>, why: ConnectionEnd) {
    for (const entry of [...entries]) {
      entry.connection.close();
      entry.socket.end(why);
    }
  }

  sessions.onStop((session, why) => endAll(open.get(session.userId) ?? [], why));

  function warmUp(): Promise<void> {
    warming ??= Promise.all([
      warmUpAudio(),
      engines.synthesize('Ready.', new AbortController().signal).then(() => undefined),
    ]).then(
      () => undefined,
      (error: unknown) => deps.log?.warn({ err: error }, 'voice assistant warm-up failed'),
    );
    return warming;
  }

  const connect = createConnector({
    deps,
    sessions,
    engines,
    conversations,
    history,
    indexes,
    open,
    tutorFor,
    pastQuestions,
    warmUp,
  });

  async function ownBook(userId: string, jobId: string): Promise<void> {
    if ((await deps.books.findCompleted(userId, jobId)) === null) throw new DomainError('not_found', 'Book not found');
  }

  /** "Previously…": offered when the book has rested long enough and something was heard before the stop. */
  async function recapFor(userId: string, jobId: string): Promise<KeptConversation['recap']> {
    const played = (await history.recent(userId, 100)).find((entry) => entry.jobId === jobId);
    if (played === undefined || played.lastPlayedAt === null || played.positionSeconds <= 0) return null;
    const restedMinutes = Math.floor((now().getTime() - played.lastPlayedAt.getTime()) / 60_000);
    if (restedMinutes < (deps.recapAfterMinutes ?? 30)) return null;
    // The saved place bounds it: the toolbox reads nothing past where the listener stopped.
    const toolbox = createToolbox({ userId, books: deps.books, history, indexes, clientPosition: () => undefined });
    const recap = await toolbox.call('recent_events', { job_id: jobId, span: 'recap' });
    return (recap.data.summary as unknown[]).length === 0 ? null : { text: recap.answer, restedMinutes };
  }

  return {
    async conversation(userId, jobId) {
      await ownBook(userId, jobId);
      const [turns, recap] = await Promise.all([conversations.list(userId, jobId), recapFor(userId, jobId)]);
      return { turns, recap };
    },
    async clearConversation(userId, jobId) {
      await ownBook(userId, jobId);
      await conversations.clear(userId, jobId);
      // The tutor of a running session forgets the questions it asked about this book.
      const session = sessions.get(userId);
      if (session !== null) tutorMemory.get(session)?.delete(jobId);
    },
    sessions,
    books: deps.books,
    toolNames: TOOL_NAMES,
    hearsSpeech: engines.speechToText !== null,
    hasChatModel: engines.chatModel,
    warmUp,
    connect,
    connectionCount: (userId) => open.get(userId)?.size ?? 0,
    openConnections: () => [...open.values()].reduce((n, set) => n + set.size, 0),
    close() {
      const all = [...open.values()].flatMap((set) => [...set]);
      open.clear();
      endAll(all, 'restarting');
      sessions.stopAll();
    },
  };
}
