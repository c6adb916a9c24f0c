import { ConfigError, httpUrl, integer, section, text } from './declare';

/** The voice assistant: an optional chat model that answers with the same spoiler-bounded tools. */
export const assistantSection = section({
  title: 'Voice assistant',
  variables: {
    assistantModelUrl: httpUrl(
      'ASSISTANT_MODEL_URL',
      '(unset: offline answers)',
      "Base URL of an OpenAI-compatible chat-completions API for the voice assistant's answers, e.g. http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp server), a vLLM server or https://api.openai.com/v1. The model calls the assistant's tools, which only read what the listener has heard; when it fails or times out, the offline answers take over and the client is told. Needs ASSISTANT_MODEL.",
    ),
    assistantModelName: text(
      'ASSISTANT_MODEL',
      {},
      'The model name sent to ASSISTANT_MODEL_URL (e.g. llama3.1:8b, qwen2.5:7b-instruct, gpt-4o-mini); it must support tool calls. Required with ASSISTANT_MODEL_URL.',
    ),
    assistantModelKey: text(
      'ASSISTANT_MODEL_KEY',
      {},
      'Bearer key for ASSISTANT_MODEL_URL, when the server needs one (OpenAI, a hosted vLLM); local servers usually do not.',
    ),
    assistantModelTimeoutSeconds: integer(
      'ASSISTANT_MODEL_TIMEOUT_SECONDS',
      { min: 1, max: 300, default: 20 },
      'Longest the voice assistant waits for one reply of ASSISTANT_MODEL (1-300 s) before the offline answer is given instead.',
    ),
    recapAfterMinutes: integer(
      'RECAP_AFTER_MINUTES',
      { min: 1, max: 525600, default: 30 },
      'Minutes (1-525600) a book must have rested since it was last played for the voice page and the player to offer "Previously…": a short spoken recap of what was heard before the stop (never past it).',
    ),
  },
  rawOnly: ['assistantModelUrl', 'assistantModelName', 'assistantModelKey', 'assistantModelTimeoutSeconds'],
  derive: (vars) => {
    const { assistantModelUrl: url, assistantModelName: model } = vars;
    if ((url === undefined) !== (model === undefined)) {
      throw new ConfigError(
        url === undefined
          ? 'ASSISTANT_MODEL is set but ASSISTANT_MODEL_URL is not: set both to use a chat model, or neither for offline answers'
          : 'ASSISTANT_MODEL_URL is set but ASSISTANT_MODEL is not: name the model to use (e.g. llama3.1:8b)',
      );
    }
    return {
      /** An OpenAI-compatible chat model that answers in the voice assistant (offline brain when unset or failing). */
      assistantModel:
        url === undefined || model === undefined
          ? undefined
          : { url, model, key: vars.assistantModelKey, timeoutSeconds: vars.assistantModelTimeoutSeconds },
    };
  },
});
