import { getClearVoiceConversationMockHandler } from '../api/gen/endpoints/voice-assistant/clear-voice-conversation.msw';
import { getConnectVoiceAssistantMockHandler } from '../api/gen/endpoints/voice-assistant/connect-voice-assistant.msw';
import { getGetVoiceAssistantStatusMockHandler } from '../api/gen/endpoints/voice-assistant/get-voice-assistant-status.msw';
import { getGetVoiceConversationMockHandler } from '../api/gen/endpoints/voice-assistant/get-voice-conversation.msw';
import { getStartVoiceAssistantMockHandler } from '../api/gen/endpoints/voice-assistant/start-voice-assistant.msw';
import { getStopVoiceAssistantMockHandler } from '../api/gen/endpoints/voice-assistant/stop-voice-assistant.msw';
import type {
  VoiceAssistantConnectResponse,
  VoiceAssistantStartRequest,
  VoiceAssistantStatus,
  VoiceConversation,
  VoiceTurn,
} from '../api/gen/model';
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

/** A kept conversation about the sample book: an X-ray question, its answer with evidence, a tutor question. */
export function voiceTurnsFixture(): VoiceTurn[] {
  return [
    {
      id: 1,
      mode: 'xray',
      speaker: 'reader',
      text: 'Who is the old man?',
      created_at: '2026-03-01T09:14:00Z',
      evidence: null,
    },
    {
      id: 2,
      mode: 'xray',
      speaker: 'assistant',
      text: 'The old man is the narrator’s neighbour. You heard, in chapter 1, about 10 seconds in: "He had the eye of a vulture."',
      created_at: '2026-03-01T09:14:01Z',
      evidence: {
        text: 'He had the eye of a vulture.',
        where: 'in chapter 1, about 10 seconds in',
        position_seconds: 10,
      },
    },
    {
      id: 3,
      mode: 'tutor',
      speaker: 'assistant',
      text: 'Why do you think the narrator insists so much that he is not mad?',
      created_at: '2026-03-01T09:16:30Z',
      evidence: null,
    },
  ];
}

export function voiceConversationFixture(overrides: Partial<VoiceConversation> = {}): VoiceConversation {
  return { job_id: '00000000-0000-4000-8000-000000000000', turns: [], recap: null, ...overrides };
}

/** The kept conversation (none by default, as for a book never discussed). */
export function voiceConversationHandler(overrides: Partial<VoiceConversation> = {}, options: ReplyOptions = {}) {
  return getGetVoiceConversationMockHandler(
    answer(options, ({ params }) =>
      voiceConversationFixture({ job_id: String((params as { jobId?: string }).jobId), ...overrides }),
    ),
  );
}

export function voiceClearConversationHandler(options: ReplyOptions = {}) {
  return getClearVoiceConversationMockHandler(answer(options, () => undefined));
}
