/**
 * The assistant's cloud engines (when OPENAI_API_KEY is set): speech-to-text, a chat model that
 * calls the same tools (so the same spoiler bound applies: the model only ever sees tool results),
 * and text-to-speech, all through the official openai SDK (base URL from OPENAI_BASE_URL).
 */
import OpenAI, { toFile } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { createOpenAiEngine } from '../tts/openai';
import { encodeWav } from '../tts/wav';
import { resample } from './audio';
import type { Brain, CallTool } from './brain';
import { BOT_SAMPLE_RATE } from '../../proto/audio';
import type { AssistantEngines } from './service';
import type { VoiceSession } from './sessions';
import { TOOL_DEFINITIONS, ToolError, type ToolName } from './tools';

export interface OpenAiAssistantOptions {
  apiKey: string;
  baseURL?: string;
  chatModel?: string;
  transcriptionModel?: string;
  voice?: string;
  /** Tool-call rounds per answer before giving up (default 4). */
  maxToolRounds?: number;
  timeoutMs?: number;
}

const TOOLS: ChatCompletionTool[] = TOOL_DEFINITIONS.map((d) => ({
  type: 'function',
  function: { name: d.name, description: d.description, parameters: d.parameters },
}));

export function systemPrompt(session: VoiceSession): string {
  const lines = [
    'You are the voice assistant of Lectio, an audiobook app. Answers are spoken: keep them short (one to three sentences), plain text, no lists or markdown.',
    'You know nothing about the books except what the tools return. The tools only show text the listener has already heard; never guess or reveal anything beyond it, even if you know the book.',
    'When you quote the book, say where the quote comes from as the tool says it (for example "in chapter 1, about 2 minutes in").',
    '"What just happened?", "What did I miss?", "Remind me what happened in the last chapter": call recent_events (span recent, last_chapter or this_chapter) and retell its summary faithfully. A question about what lies ahead ("how does it end?", "does X die?") is declined kindly: say it is still ahead of the listener and you only talk about what they have heard; never say you could not find it.',
    'Questions about the user\'s library (what books they have, what they were listening to, how far they are in a book) go to search_library and current_position; "continue X" is current_position with resume=true.',
  ];
  if (session.jobId !== null) lines.push(`The current book has job_id ${session.jobId}.`);
  if (session.mode === 'xray') {
    lines.push(
      'X-ray mode: answer who/what/where questions with xray_lookup (kind "setting" for where the story takes place, "when" for its time), other questions with search_book.',
    );
  }
  if (session.mode === 'tutor') {
    lines.push(
      "Tutor mode: a Socratic tutor. Never lecture and never repeat the learner's words back. Call tutor_turn with the learner's answer: it returns the next step of the dialogue (why they read it so, then the evidence, then another reading, then their own view, then the next discussion question) with the heard passage that bears on what they said. Say it in your own words: name what the learner just said, keep its quote (never quote a passage that does not bear on their answer), never ask a question you already asked, and end with exactly one open question.",
    );
  }
  if (session.mode === null)
    lines.push('No book is selected: help the user with their library (search_library, current_position).');
  return lines.join('\n');
}

export function createOpenAiBrain(
  client: OpenAI,
  options: {
    model: string;
    maxToolRounds: number;
    session: VoiceSession;
    callTool: CallTool;
    /** Longest one answer may take, all rounds. */ timeoutMs?: number;
  },
): Brain {
  const { session, callTool } = options;
  const history: ChatCompletionMessageParam[] = [{ role: 'system', content: systemPrompt(session) }];

  return {
    async opening() {
      if (session.mode !== 'tutor' || session.jobId === null) return null;
      const opening = (await callTool('tutor_turn', { job_id: session.jobId, user_message: '' })).answer;
      history.push({ role: 'assistant', content: opening });
      return opening;
    },
    async respond(text) {
      const start = history.length;
      history.push({ role: 'user', content: text });
      const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
      try {
        return await answer(signal);
      } catch (error) {
        // A failed answer leaves no half turn in the history (the next question starts clean).
        history.length = start;
        if (signal?.aborted === true)
          throw new Error(`The language model did not answer within ${options.timeoutMs} ms`, { cause: error });
        throw error;
      }
    },
    remember(text, reply) {
      history.push({ role: 'user', content: text }, { role: 'assistant', content: reply });
    },
  };

  async function answer(signal: AbortSignal | undefined): Promise<string> {
    for (let round = 0; round <= options.maxToolRounds; round += 1) {
      const completion = await client.chat.completions.create(
        { model: options.model, messages: history, ...(round < options.maxToolRounds && { tools: TOOLS }) },
        signal === undefined ? undefined : { signal },
      );
      const message = completion.choices[0]?.message;
      if (message === undefined) throw new Error('The language model returned no answer');
      const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
      if (calls.length === 0) {
        const reply = (message.content ?? '').trim() || "Sorry, I don't have an answer to that.";
        history.push({ role: 'assistant', content: reply });
        return reply;
      }
      history.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
      for (const call of calls) {
        let content: string;
        try {
          const args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
          const result = await callTool(call.function.name as ToolName, args);
          content = JSON.stringify({ answer: result.answer, data: result.data });
        } catch (error) {
          if (!(error instanceof ToolError) && !(error instanceof SyntaxError)) throw error;
          content = JSON.stringify({ error: error.message });
        }
        history.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    throw new Error('The language model kept calling tools without answering');
  }
}

export function openAiEngines(options: OpenAiAssistantOptions): AssistantEngines {
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
    maxRetries: 1,
    timeout: options.timeoutMs ?? 30_000,
  });
  const tts = createOpenAiEngine({
    apiKey: options.apiKey,
    ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
    retry: { maxRetries: 1 },
  });
  const voice = options.voice ?? 'alloy';
  return {
    chatModel: true,
    async synthesize(text, signal) {
      const speech = await tts.synthesize(text, voice, signal);
      return resample(speech.samples, speech.sampleRate, BOT_SAMPLE_RATE);
    },
    async speechToText(pcm, sampleRate, signal) {
      const wav = encodeWav({ samples: pcm, sampleRate });
      const file = await toFile(Buffer.from(wav), 'speech.wav', { type: 'audio/wav' });
      const result = await client.audio.transcriptions.create(
        { file, model: options.transcriptionModel ?? 'gpt-4o-mini-transcribe' },
        { signal },
      );
      const text = typeof result === 'string' ? result : result.text;
      return text.trim() === '' ? null : text.trim();
    },
    brain: ({ session, callTool }) =>
      createOpenAiBrain(client, {
        model: options.chatModel ?? 'gpt-4o-mini',
        maxToolRounds: options.maxToolRounds ?? 4,
        session,
        callTool,
      }),
  };
}
