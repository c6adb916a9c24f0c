import {
  getConnectVoiceAssistantMockHandler,
  getGetVoiceAssistantStatusMockHandler,
  getStartVoiceAssistantMockHandler,
  getStopVoiceAssistantMockHandler,
} from '../api/gen/endpoints/voice-assistant/voice-assistant.msw';
import type { VoiceAssistantConnectResponse, VoiceAssistantStartRequest, VoiceAssistantStatus } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';

/**
 * Voice assistant fixtures and handlers (status, start, stop, connect). Stateless on purpose: each
 * story says what the server answers; the page's store carries the state between calls.
 */
export const VOICE_WS_URL = 'ws://localhost:8080/api/v1/voice-assistant/ws';
export const VOICE_FUNCTIONS = ['search_library', 'get_book_context', 'lookup_character', 'get_playback_position'];

export function voiceStatusFixture(overrides: Partial<VoiceAssistantStatus> = {}): VoiceAssistantStatus {
  const running = (overrides.status ?? 'stopped') === 'running';
  return {
    status: 'stopped',
    websocket_url: running ? VOICE_WS_URL : null,
    mcp_functions: running ? [...VOICE_FUNCTIONS] : [],
    mode: null,
    job_id: null,
    ...overrides,
  };
}

export function voiceConnectFixture(
  overrides: Partial<VoiceAssistantConnectResponse> = {},
): VoiceAssistantConnectResponse {
  return { connectionUrl: VOICE_WS_URL, ...overrides };
}

export function voiceStatusHandler(overrides: Partial<VoiceAssistantStatus> = {}, options: ReplyOptions = {}) {
  return getGetVoiceAssistantStatusMockHandler(answer(options, () => voiceStatusFixture(overrides)));
}

/** Starts (or, like the server, switches to) the session the request asks for. */
export function voiceStartHandler(overrides: Partial<VoiceAssistantStatus> = {}, options: ReplyOptions = {}) {
  return getStartVoiceAssistantMockHandler(
    answer(options, async ({ request }) => {
      const asked = (await request.json().catch(() => ({}))) as VoiceAssistantStartRequest;
      return voiceStatusFixture({
        status: 'running',
        mode: asked.mode ?? null,
        job_id: asked.jobId ?? null,
        ...overrides,
      });
    }),
  );
}

export function voiceStopHandler(options: ReplyOptions = {}) {
  return getStopVoiceAssistantMockHandler(answer(options, () => voiceStatusFixture({ status: 'stopped' })));
}

export function voiceConnectHandler(
  overrides: Partial<VoiceAssistantConnectResponse> = {},
  options: ReplyOptions = {},
) {
  return getConnectVoiceAssistantMockHandler(answer(options, () => voiceConnectFixture(overrides)));
}
