/**
 * A chat model of the operator's choice (ASSISTANT_MODEL_URL: any OpenAI-compatible
 * chat-completions API — Ollama, llama.cpp server, vLLM, OpenAI) answering in the voice
 * assistant through the official `openai` client, with the same tools as the offline brain (so the
 * same position bound: the model only ever sees tool results). When the model fails or times out,
 * the offline brain answers that turn and the client gets a server message saying so; after a
 * failure the model is left alone for a cool-down so every turn does not wait for a dead server.
 */
import OpenAI from 'openai';
import type { Brain } from './brain';
import { createOpenAiBrain } from './openai';
import type { AssistantEngines } from './service';

export interface ModelOptions {
  /** Base URL of the chat-completions API (…/v1). */
  url: string;
  model: string;
  key?: string;
  /** Longest one answer (all its tool rounds) may take. */
  timeoutMs: number;
  /** Tool-call rounds per answer (default 4). */
  maxToolRounds?: number;
  /** After a failure, how long turns go straight to the offline brain (default 30 s). */
  coolDownMs?: number;
  now?: () => number;
}

/** The server message the client gets when an answer comes from the offline brain instead of the model. */
export const FALLBACK_MESSAGE = 'assistant-fallback';

export interface FallbackNotice {
  /** Why the model did not answer. */
  reason: string;
  /** A sentence the UI can show as is. */
  message: string;
}

/**
 * What a server without a chat model tells the client with each offline answer (reason `no-model`):
 * one line on what offline answers can do and how an operator connects a model.
 */
export const NO_MODEL_NOTICE: FallbackNotice = {
  reason: 'no-model',
  message:
    'Offline answers can tell you who someone is, where the story takes place, what just happened, and quote what you have heard; for open conversation an operator connects a chat model with ASSISTANT_MODEL_URL.',
};

/** `base` engines with no chat model: the offline brain answers, and each answer tells the client so. */
export function withoutModel(base: AssistantEngines): AssistantEngines {
  return {
    ...base,
    chatModel: false,
    brain(context) {
      const offline = base.brain(context);
      const told = () => context.notify(FALLBACK_MESSAGE, NO_MODEL_NOTICE);
      return {
        async opening() {
          const text = await offline.opening();
          if (text !== null) told();
          return text;
        },
        async respond(text) {
          told();
          return offline.respond(text);
        },
      };
    },
  };
}

/** Answers with `primary`; when it throws, with `fallback`, telling `notify` why. */
export function createFallbackBrain(
  primary: Brain,
  fallback: Brain,
  notify: (notice: FallbackNotice) => void,
  options: { coolDownMs: number; now: () => number },
): Brain {
  let resumeAt = 0;
  let lastReason = '';

  function fellBack(reason: string, coolingDown: boolean): void {
    notify({
      reason,
      message: coolingDown
        ? 'The language model is unavailable; the offline assistant is answering for now.'
        : `The language model did not answer (${reason}); this answer comes from the offline assistant.`,
    });
  }

  async function attempt<T>(run: (brain: Brain) => Promise<T>): Promise<T> {
    if (options.now() < resumeAt) {
      fellBack(lastReason, true);
      return run(fallback);
    }
    try {
      return await run(primary);
    } catch (error) {
      lastReason = error instanceof Error ? error.message : String(error);
      resumeAt = options.now() + options.coolDownMs;
      fellBack(lastReason, false);
      return run(fallback);
    }
  }

  return {
    opening: () => attempt((brain) => brain.opening()),
    async respond(text) {
      let answeredBy: Brain = primary;
      const reply = await attempt((brain) => {
        answeredBy = brain;
        return brain.respond(text);
      });
      if (answeredBy === fallback) primary.remember?.(text, reply);
      return reply;
    },
  };
}

/**
 * The `openai` client of a chat-completions API (ASSISTANT_MODEL_URL): no retries, a failure is
 * final and the offline answer takes over. The voice assistant and the cast's check use it.
 */
export function chatModelClient(options: { url: string; key?: string | undefined; timeoutMs: number }): OpenAI {
  return new OpenAI({
    baseURL: options.url,
    apiKey: options.key ?? 'no-key',
    maxRetries: 0,
    timeout: options.timeoutMs,
  });
}

/** `base` engines whose answers come from the model, with the offline brain of `base` as the fallback. */
export function withModel(base: AssistantEngines, options: ModelOptions): AssistantEngines {
  const client = chatModelClient(options);
  return {
    ...base,
    chatModel: true,
    brain(context) {
      const model = createOpenAiBrain(client, {
        model: options.model,
        maxToolRounds: options.maxToolRounds ?? 4,
        session: context.session,
        callTool: context.callTool,
        timeoutMs: options.timeoutMs,
      });
      return createFallbackBrain(model, base.brain(context), (notice) => context.notify(FALLBACK_MESSAGE, notice), {
        coolDownMs: options.coolDownMs ?? 30_000,
        now: options.now ?? (() => Date.now()),
      });
    },
  };
}
