import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { Badge, Button, ButtonLink, Card, TextField } from '../../components/ui';
import { formatClock } from '../../entities/time';
import { playFrom } from '../../features/player';
import {
  ask,
  clearKeptConversation,
  useOfferedRecap,
  useServiceStatus,
  useVoiceStatus,
  useVoiceAssistant,
  type TranscriptEntry,
} from '../../features/voice-assistant';
import { paths } from '../../lib/paths';
import { CardTitle, modeNames } from './parts';
import { RecapCard } from './RecapCard';

/** How close to the bottom (px) still counts as following the newest turn. */
const FOLLOW_SLACK_PX = 48;

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
`;

const Scroller = styled.div`
  position: relative;
`;

const JumpToLatest = styled(Button)`
  position: absolute;
  bottom: ${({ theme }) => theme.space(6)};
  left: 50%;
  transform: translateX(-50%);
  box-shadow: ${({ theme }) => theme.shadow};
`;

const Quote = styled.blockquote`
  margin: ${({ theme }) => theme.space(2)} 0 0;
  padding: ${({ theme }) => `${theme.space(1)} ${theme.space(3)}`};
  border-left: 3px solid ${({ theme }) => theme.colors.border};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  p {
    margin: 0 0 ${({ theme }) => theme.space(1)};
  }
  footer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${({ theme }) => theme.space(2)};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

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

function TurnItem({
  entry,
  botName,
  jobId,
  noModel,
}: {
  entry: Readonly<TranscriptEntry>;
  botName: string;
  jobId: string | null;
  /** No chat model on this server: every answer is offline, the note above says so once. */
  noModel: boolean;
}) {
  const name = entry.speaker === 'user' ? 'You' : entry.mode ? modeNames[entry.mode] : botName;
  return (
    <Turn $speaker={entry.speaker} aria-busy={entry.final ? undefined : true}>
      <TurnHead>
        <strong>{name}</strong>
        <time dateTime={new Date(entry.at).toISOString()}>{clockOf(entry.at)}</time>
        {entry.offline && !noModel && <Badge tone="neutral">Answered offline</Badge>}
      </TurnHead>
      <TurnText className="text">{entry.text}</TurnText>
      {entry.evidence && (
        <Quote aria-label="Evidence">
          <p>{`“${entry.evidence.text}”`}</p>
          <footer>
            <span>{entry.evidence.where.replace(/^in /u, 'Heard in ')}</span>
            {jobId && (
              <Button
                variant="secondary"
                aria-label={`Play from here: ${entry.evidence.where}`}
                onClick={() => void playFrom(jobId, entry.evidence!.positionSeconds)}
              >
                Play from here
              </Button>
            )}
          </footer>
        </Quote>
      )}
      {entry.openBook && (
        <OpenBook>
          <span>{`${entry.openBook.title} is ready in the player at ${formatClock(entry.openBook.positionSeconds)}.`}</span>
          <ButtonLink href={paths.libraryBook(entry.openBook.jobId)}>{`Open ${entry.openBook.title}`}</ButtonLink>
        </OpenBook>
      )}
    </Turn>
  );
}

/**
 * Keeps the newest turn in view while the reader follows the conversation; once they scroll up to
 * read, it stays where they are and offers "Jump to latest".
 */
function useFollowLatest(count: number, lastText: string) {
  const list = useRef<HTMLOListElement>(null);
  const [following, setFollowing] = useState(true);
  const followingRef = useRef(true);
  const toBottom = () => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
    followingRef.current = true;
    setFollowing(true);
  };
  useLayoutEffect(() => {
    if (followingRef.current) toBottom();
  }, [count, lastText]);
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK_PX;
      followingRef.current = atBottom;
      setFollowing(atBottom);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);
  return { list, following, toBottom };
}

/** The server's reason when it has no chat model at all (docs/voice-assistant.md#offline-answers). */
const NO_MODEL = 'no-model';

/** What offline answers can do, shown before the first answer when the server has no chat model. */
export const OFFLINE_ANSWERS_NOTE =
  'Offline answers can tell you who someone is, where the story takes place, what just happened, and quote what you have heard; for open conversation an operator connects a chat model with ASSISTANT_MODEL_URL.';

/** The conversation: the offline notice, the turns, and the question box (always there). */
export function TranscriptPanel({
  botName,
  examples,
  jobId,
}: {
  botName: string;
  examples: readonly string[];
  jobId: string | null;
}) {
  const voice = useVoiceAssistant();
  const last = voice.transcript[voice.transcript.length - 1];
  // The newest turn grows with its text, then its evidence: each keeps it in view.
  const { list, following, toBottom } = useFollowLatest(
    voice.transcript.length,
    `${last?.text ?? ''}\u0000${last?.evidence?.text ?? ''}\u0000${last?.openBook?.jobId ?? ''}`,
  );
  const [question, setQuestion] = useState('');
  const connected = voice.clientStatus === 'connected';
  const service = useServiceStatus();
  const recap = useOfferedRecap();
  const busy = voice.clientStatus === 'connecting' || service === 'starting';
  // The status says so from the start; each offline answer says so again (its own words).
  const status = useVoiceStatus();
  const noModel = voice.fallback?.reason === NO_MODEL || status?.chat_model === false;
  const notice = voice.fallback?.message ?? (noModel ? OFFLINE_ANSWERS_NOTE : null);

  async function send(event: FormEvent) {
    event.preventDefault();
    const text = question;
    setQuestion('');
    if (!(await ask(text))) setQuestion((current) => current || text);
  }

  return (
    <Card aria-labelledby="va-transcript">
      <Head>
        <CardTitle id="va-transcript">Conversation</CardTitle>
        {voice.transcript.length > 0 && (
          <Button variant="secondary" onClick={() => void clearKeptConversation()}>
            Clear conversation
          </Button>
        )}
      </Head>
      {recap && jobId && <RecapCard recap={recap} jobId={jobId} />}
      {notice !== null && (
        <Notice role="status">
          <p>
            <strong>{noModel ? 'Offline answers.' : 'Answering offline.'}</strong> {notice}
          </p>
        </Notice>
      )}
      <Scroller>
        <Transcript ref={list} tabIndex={0} aria-labelledby="va-transcript" aria-live="polite">
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
            <TurnItem key={entry.id} entry={entry} botName={botName} jobId={jobId} noModel={noModel} />
          ))}
        </Transcript>
        {!following && (
          <JumpToLatest variant="secondary" onClick={toBottom}>
            Jump to latest
          </JumpToLatest>
        )}
      </Scroller>
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
