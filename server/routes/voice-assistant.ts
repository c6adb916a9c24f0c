import type { FastifyRequest } from 'fastify';
import type { VoiceAssistant } from '../assistant/service';
import type { VoiceSession } from '../assistant/sessions';
import {
  ClearVoiceConversationParams,
  ConnectVoiceAssistantResponse,
  GetVoiceConversationParams,
  GetVoiceConversationResponse,
  GetVoiceAssistantStatusResponse,
  StartVoiceAssistantBody,
  StartVoiceAssistantResponse,
  StopVoiceAssistantResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { websocketUrl, type CrossOrigin } from '../http/cross-origin';
import { HttpError } from '../http/errors';
import type { RoutePlugin } from './types';
import { VOICE_WS_PATH } from './voice-socket';

type Urls = Pick<CrossOrigin, 'publicUrl'>;

function statusDto(assistant: VoiceAssistant, session: VoiceSession | null, request: FastifyRequest, urls: Urls) {
  return session === null
    ? {
        status: 'stopped' as const,
        websocket_url: null,
        mcp_functions: [],
        mode: null,
        job_id: null,
        speech_to_text: assistant.hearsSpeech,
        chat_model: assistant.hasChatModel,
      }
    : {
        status: 'running' as const,
        websocket_url: websocketUrl(request, urls, VOICE_WS_PATH),
        mcp_functions: [...assistant.toolNames],
        mode: session.mode,
        job_id: session.jobId,
        speech_to_text: assistant.hearsSpeech,
        chat_model: assistant.hasChatModel,
      };
}

/** The user's voice assistant session: status, start, stop, and where to connect. */
export const voiceAssistantRoutes: RoutePlugin<{ assistant: VoiceAssistant; urls: Urls }> = async (
  app,
  { assistant, urls },
) => {
  app.get(
    '/voice-assistant/status',
    { schema: { response: { 200: GetVoiceAssistantStatusResponse } } },
    async (request) => {
      const user = requireUser(request);
      return statusDto(assistant, assistant.sessions.get(user.id), request, urls);
    },
  );

  app.post(
    '/voice-assistant/start',
    { schema: { body: StartVoiceAssistantBody.optional(), response: { 200: StartVoiceAssistantResponse } } },
    async (request) => {
      const user = requireUser(request);
      const body = request.body ?? {};
      const session = await assistant.sessions.start(user.id, { mode: body.mode, jobId: body.jobId });
      // Load the voice now so the first answer does not wait for it.
      void assistant.warmUp();
      return statusDto(assistant, session, request, urls);
    },
  );

  app.post('/voice-assistant/stop', { schema: { response: { 200: StopVoiceAssistantResponse } } }, async (request) => {
    const user = requireUser(request);
    assistant.sessions.stop(user.id);
    return statusDto(assistant, null, request, urls);
  });

  app.post(
    '/voice-assistant/connect',
    { schema: { response: { 200: ConnectVoiceAssistantResponse } } },
    async (request) => {
      const user = requireUser(request);
      if (assistant.sessions.get(user.id) === null) {
        throw new HttpError(503, 'The voice assistant is not running. Start it first.');
      }
      return { connectionUrl: websocketUrl(request, urls, VOICE_WS_PATH) };
    },
  );

  // The conversation about one book, kept across mode switches and reloads; and its clearing.
  app.get(
    '/voice-assistant/conversations/:jobId',
    { schema: { params: GetVoiceConversationParams, response: { 200: GetVoiceConversationResponse } } },
    async (request) => {
      const user = requireUser(request);
      const { jobId } = request.params;
      const kept = await assistant.conversation(user.id, jobId);
      return {
        job_id: jobId,
        turns: kept.turns.map((t) => ({
          id: t.id,
          mode: t.mode,
          speaker: t.speaker,
          text: t.text,
          created_at: t.createdAt.toISOString(),
          evidence: t.evidence,
        })),
        recap: kept.recap && { text: kept.recap.text, rested_minutes: kept.recap.restedMinutes },
      };
    },
  );

  app.delete(
    '/voice-assistant/conversations/:jobId',
    { schema: { params: ClearVoiceConversationParams } },
    async (request, reply) => {
      await assistant.clearConversation(requireUser(request).id, request.params.jobId);
      return reply.code(204).send();
    },
  );
};
