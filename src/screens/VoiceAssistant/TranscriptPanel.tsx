import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { Badge, Button, ButtonLink, Card, TextField } from '../../components/ui';
import { formatClock } from '../../entities/time';
import { ask, useVoiceAssistant, type TranscriptEntry } from '../../features/voice-assistant';
import { paths } from '../../lib/paths';
import { CardTitle } from './parts';

const Transcript = styled.ol`
  list-style: none;
  margin: 0 0 ${({ theme }) => theme.space(4)};
  padding: 0;
  min-height: 200px;
  max-height: 55vh;
  overflow-y: auto;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
`;

const Turn = styled.li<{ $speaker: 'user' | 'bot' }>`
  align-self: ${({ $speaker }) => ($speaker === 'user' ? 'flex-end' : 'flex-start')};
  max-width: 85%;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $speaker }) => ($speaker === 'user' ? theme.tone.info.background : theme.tone.neutral.background)};
  color: ${({ theme }) => theme.colors.text};
  overflow-wrap: anywhere;
  &[aria-busy='true'] .text::after {
    content: ' …';
  }
`;

const TurnHead = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(1)};
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  time {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const TurnText = styled.p`
  margin: 0;
`;

const OpenBook = styled.div`
  margin-top: ${({ theme }) => theme.space(2)};
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
`;

const Hint = styled.li`
  color: ${({ theme }) => theme.colors.textMuted};
  ul {
    margin: ${({ theme }) => theme.space(2)} 0 0;
  }
`;

const Notice = styled.div`
  margin-bottom: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.tone.info.border};
  background: ${({ theme }) => theme.tone.info.background};
  color: ${({ theme }) => theme.tone.info.text};
  p {
    margin: 0;
  }
`;

/** The question box: the field takes what is left, Send keeps its size; nothing leaves the card. */
const AskForm = styled.form`
  display: grid;
  grid-template-columns: minmax(0, 1fr) auto;
  align-items: end;
  gap: ${({ theme }) => theme.space(2)};
  & input {
    width: 100%;
    min-width: 0;
    box-sizing: border-box;
    min-height: 40px;
  }
`;

function clockOf(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function TurnItem({ entry, botName }: { entry: Readonly<TranscriptEntry>; botName: string }) {
  return (
    <Turn $speaker={entry.speaker} aria-busy={entry.final ? undefined : true}>
      <TurnHead>
        <strong>{entry.speaker === 'user' ? 'You' : botName}</strong>
        <time dateTime={new Date(entry.at).toISOString()}>{clockOf(entry.at)}</time>
        {entry.offline && <Badge tone="neutral">Answered offline</Badge>}
      </TurnHead>
      <TurnText className="text">{entry.text}</TurnText>
      {entry.openBook && (
        <OpenBook>
          <span>{`${entry.openBook.title} is ready in the player at ${formatClock(entry.openBook.positionSeconds)}.`}</span>
          <ButtonLink href={paths.libraryBook(entry.openBook.jobId)}>{`Open ${entry.openBook.title}`}</ButtonLink>
        </OpenBook>
      )}
    </Turn>
  );
}

/** The conversation: the offline notice, the turns, and the question box (always there). */
export function TranscriptPanel({ botName, examples }: { botName: string; examples: readonly string[] }) {
  const voice = useVoiceAssistant();
  const [question, setQuestion] = useState('');
  const connected = voice.clientStatus === 'connected';
  const busy = voice.clientStatus === 'connecting' || voice.serviceStatus === 'starting';

  async function send(event: FormEvent) {
    event.preventDefault();
    const text = question;
    setQuestion('');
    if (!(await ask(text))) setQuestion((current) => current || text);
  }

  return (
    <Card aria-labelledby="va-transcript">
      <CardTitle id="va-transcript">Conversation</CardTitle>
      {voice.fallback && (
        <Notice role="status">
          <p>
            <strong>Answering offline.</strong> {voice.fallback.message}
          </p>
        </Notice>
      )}
      <Transcript aria-labelledby="va-transcript" aria-live="polite">
        {voice.transcript.length === 0 && (
          <Hint>
            {connected
              ? 'Say something, or type a question below. For example:'
              : 'Press Start talking, or type a question below. For example:'}
            <ul>
              {examples.map((example) => (
                <li key={example}>{`“${example}”`}</li>
              ))}
            </ul>
          </Hint>
        )}
        {voice.transcript.map((entry) => (
          <TurnItem key={entry.id} entry={entry} botName={botName} />
        ))}
      </Transcript>
      <AskForm onSubmit={(event) => void send(event)}>
        <TextField
          label="Type a question"
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          autoComplete="off"
        />
        <Button type="submit" disabled={!question.trim() || busy}>
          Send
        </Button>
      </AskForm>
    </Card>
  );
}
