import { useEffect, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useSearch } from 'wouter';
import { Alert, Badge, Button, Card, Page, TextField } from '../../components/ui';
import {
  checkStatus,
  connect,
  disconnect,
  sendText,
  setContext,
  start,
  stop,
  useVoiceAssistant,
  watchStatus,
  type ClientStatus,
  type ServiceStatus,
} from '../../features/voice-assistant';
import type { AssistantMode } from '../../lib/paths';
import type { Tone } from '../../styles/theme';

const modeSuffix: Record<AssistantMode, string> = { tutor: ' - Tutoring Mode', xray: ' - X-ray Lookup' };

export const XRAY_EXAMPLES = ['Who is this character?', 'What just happened?', 'Where does this scene take place?'];

const serviceLabel: Record<ServiceStatus, string> = {
  unknown: 'Unknown',
  running: 'Running',
  stopped: 'Stopped',
  starting: 'Starting',
  error: 'Error',
};
const serviceTone: Record<ServiceStatus, Tone> = {
  unknown: 'neutral',
  running: 'success',
  stopped: 'neutral',
  starting: 'info',
  error: 'danger',
};
const clientLabel: Record<ClientStatus, string> = {
  disconnected: 'Disconnected',
  connecting: 'Connecting',
  connected: 'Connected',
  error: 'Error',
};
const clientTone: Record<ClientStatus, Tone> = {
  disconnected: 'neutral',
  connecting: 'info',
  connected: 'success',
  error: 'danger',
};

const Grid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  grid-template-columns: repeat(auto-fit, minmax(320px, 1fr));
`;

const CardTitle = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: 1.125rem;
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(3)};
`;

const Dot = styled.span<{ $tone: Tone }>`
  display: inline-block;
  width: 12px;
  height: 12px;
  border-radius: 50%;
  background: ${({ theme, $tone }) => theme.tone[$tone].text};
`;

const Status = styled.p`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  margin: 0;
  font-weight: 600;
`;

const Chips = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  list-style: none;
  margin: 0 0 ${({ theme }) => theme.space(3)};
  padding: 0;
`;

const Small = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(2)};
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
  overflow-wrap: anywhere;
`;

const Transcript = styled.ol`
  list-style: none;
  margin: ${({ theme }) => `${theme.space(3)} 0`};
  padding: ${({ theme }) => theme.space(3)};
  max-height: 320px;
  overflow-y: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(2)};
`;

const Turn = styled.li<{ $speaker: 'user' | 'bot' }>`
  align-self: ${({ $speaker }) => ($speaker === 'user' ? 'flex-end' : 'flex-start')};
  max-width: 85%;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $speaker }) => ($speaker === 'user' ? theme.tone.info.background : theme.tone.neutral.background)};
  color: ${({ theme }) => theme.colors.text};
`;

const AskForm = styled.form`
  display: flex;
  align-items: flex-end;
  gap: ${({ theme }) => theme.space(2)};
  & > :first-child {
    flex: 1;
    /* A flex item never shrinks below its input's intrinsic width unless told: the button would
       be pushed out of the card on narrow screens. */
    min-width: 0;
  }
  & input {
    width: 100%;
    box-sizing: border-box;
  }
  & > button {
    flex: none;
  }
`;

function subtitle(mode: AssistantMode | null, jobId: string | null): string {
  if (mode === 'tutor' && jobId) return 'Ready for Socratic dialogue about your audiobook. Ask questions and explore ideas!';
  if (mode === 'xray' && jobId) {
    return `Ask about the characters, places and events in your audiobook, e.g. ${XRAY_EXAMPLES.map((q) => `"${q}"`).join(', ')}`;
  }
  return 'AI-powered voice assistant with your audiobook library access';
}

function readQuery(search: string): { mode: AssistantMode | null; jobId: string | null; position: number | null } {
  const query = new URLSearchParams(search);
  const rawMode = query.get('mode');
  const mode = rawMode === 'tutor' || rawMode === 'xray' ? rawMode : null;
  const rawPosition = query.get('position');
  const position = rawPosition !== null && rawPosition !== '' && Number.isFinite(Number(rawPosition)) ? Number(rawPosition) : null;
  return { mode, jobId: query.get('jobId') || null, position };
}

/** /voice-assistant (docs/product.md#voice-assistant): service status, client connection, service control, how to use. */
export function VoiceAssistant() {
  const search = useSearch();
  const { mode, jobId, position } = readQuery(search);
  const voice = useVoiceAssistant();
  const [question, setQuestion] = useState('');

  useEffect(() => setContext({ mode, jobId, position }), [mode, jobId, position]);
  useEffect(() => {
    const unwatch = watchStatus();
    return () => {
      unwatch();
      void disconnect();
    };
  }, []);

  const running = voice.serviceStatus === 'running';
  const connected = voice.clientStatus === 'connected';

  function ask(event: FormEvent) {
    event.preventDefault();
    if (sendText(question)) setQuestion('');
  }

  return (
    <Page title={`Voice Assistant${mode ? modeSuffix[mode] : ''}`} lead={subtitle(mode, jobId)}>
      <Grid>
        <Card aria-labelledby="va-service">
          <CardTitle id="va-service">Service Status</CardTitle>
          <Row>
            <Status>
              <Dot $tone={serviceTone[voice.serviceStatus]} aria-hidden="true" />
              <span>{serviceLabel[voice.serviceStatus]}</span>
            </Status>
            <Button variant="secondary" onClick={() => void checkStatus()}>
              Refresh Status
            </Button>
          </Row>
          {voice.websocketUrl && (
            <Small>
              WebSocket URL: <code>{voice.websocketUrl}</code>
            </Small>
          )}
          {voice.mcpFunctions.length > 0 && (
            <>
              <Small id="va-functions">Available functions</Small>
              <Chips aria-labelledby="va-functions">
                {voice.mcpFunctions.map((name) => (
                  <li key={name}>
                    <Badge tone="info">{name}</Badge>
                  </li>
                ))}
              </Chips>
            </>
          )}
          {voice.error && <Alert>{voice.error}</Alert>}
        </Card>

        <Card aria-labelledby="va-client">
          <CardTitle id="va-client">Client Connection</CardTitle>
          <Row>
            <Status>
              <Dot $tone={clientTone[voice.clientStatus]} aria-hidden="true" />
              <span>{clientLabel[voice.clientStatus]}</span>
              {voice.reconnecting && <span>(reconnecting...)</span>}
            </Status>
          </Row>
          <Row>
            {running && (voice.clientStatus === 'disconnected' || voice.clientStatus === 'error') && (
              <Button onClick={() => void connect()}>Connect &amp; Start Voice Chat</Button>
            )}
            {voice.clientStatus === 'connecting' && <Button disabled>Connecting...</Button>}
            {connected && (
              <Button variant="secondary" onClick={() => void disconnect()}>
                Disconnect Voice Chat
              </Button>
            )}
            {!running && voice.clientStatus !== 'connected' && <Small>Start the voice assistant to begin a voice chat.</Small>}
          </Row>
          {connected && (
            <Small>
              Talking with {voice.remoteParticipant?.name ?? 'Bot'}. Microphone {voice.micEnabled ? 'on' : 'off'}, camera off.{' '}
              {voice.botSpeaking ? 'The bot is speaking.' : voice.userSpeaking ? 'Listening...' : ''}
            </Small>
          )}
          {connected && (
            <Row>
              <Small as="span">
                You <meter aria-label="Your microphone level" min={0} max={1} value={voice.levels.local} />
              </Small>
              <Small as="span">
                Bot <meter aria-label="Bot audio level" min={0} max={1} value={voice.levels.remote} />
              </Small>
            </Row>
          )}
          {(connected || voice.transcript.length > 0) && (
            <>
              <Small id="va-transcript">Conversation</Small>
              <Transcript aria-labelledby="va-transcript" aria-live="polite">
                {voice.transcript.length === 0 && <li>Say something, or type a question below.</li>}
                {voice.transcript.map((entry) => (
                  <Turn key={entry.id} $speaker={entry.speaker}>
                    <strong>{entry.speaker === 'user' ? 'You' : voice.remoteParticipant?.name ?? 'Bot'}: </strong>
                    {entry.text}
                  </Turn>
                ))}
              </Transcript>
            </>
          )}
          {connected && (
            <AskForm onSubmit={ask}>
              <TextField
                label="Type a question"
                value={question}
                onChange={(event) => setQuestion(event.target.value)}
                autoComplete="off"
              />
              <Button type="submit" disabled={!question.trim()}>
                Send
              </Button>
            </AskForm>
          )}
        </Card>

        <Card aria-labelledby="va-control">
          <CardTitle id="va-control">Service Control</CardTitle>
          <Row>
            <Button onClick={() => void start()} disabled={running || voice.serviceStatus === 'starting'}>
              Start Voice Assistant
            </Button>
            <Button
              variant="secondary"
              onClick={() => void stop()}
              disabled={voice.serviceStatus === 'stopped' || voice.serviceStatus === 'starting'}
            >
              Stop Voice Assistant
            </Button>
          </Row>
        </Card>

        <Card aria-labelledby="va-howto">
          <CardTitle id="va-howto">How to Use</CardTitle>
          <ol>
            <li>Start the voice assistant service, then connect to begin a voice chat.</li>
            <li>Allow microphone access and speak naturally; the assistant answers out loud.</li>
            <li>Ask about your library or the book you are listening to, or type a question instead.</li>
            <li>Interrupt at any time by speaking; disconnect when you are done.</li>
          </ol>
          <Small>
            It uses a voice-agent framework with voice activity detection, a realtime AI API for speech and
            conversation, and tool integration to reach your audiobook library.
          </Small>
        </Card>
      </Grid>
    </Page>
  );
}
