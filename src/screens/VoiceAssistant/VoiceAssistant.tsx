import { useEffect, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useLocation, useSearch } from 'wouter';
import { useGetAudioMetadata } from '../../api/gen/endpoints/audio/audio';
import { useListJobs } from '../../api/gen/endpoints/jobs/jobs';
import { Alert, Badge, Button, ButtonLink, Card, Page, SelectField, TextField } from '../../components/ui';
import { bookTitle } from '../../entities/job';
import { formatClock } from '../../entities/time';
import { loadJob, playerState, usePlayer, useSavedProgress } from '../../features/player';
import {
  ask,
  checkStatus,
  disconnect,
  setContext,
  start,
  stop,
  talk,
  talkState,
  useVoiceAssistant,
  watchStatus,
  type ServiceStatus,
  type TalkState,
  type TranscriptEntry,
} from '../../features/voice-assistant';
import { paths, type AssistantMode } from '../../lib/paths';
import type { Tone } from '../../styles/theme';

export const XRAY_EXAMPLES = ['Who is this character?', 'Where does the story take place?', 'What just happened?'];
export const TUTOR_EXAMPLES = ['Ask me a question about the book', 'Why did she refuse?', 'Next question'];
export const LIBRARY_EXAMPLES = ['What books are in my library?', 'What was I listening to?', 'Continue my last book'];

const modeNames: Record<AssistantMode, string> = { tutor: 'Tutor', xray: 'X-ray' };

/** What the talk button's status line says in each state (docs/voice-assistant.md#the-page). */
export const talkLabel: Record<TalkState, string> = {
  idle: 'Ready',
  connecting: 'Connecting',
  listening: 'Listening',
  typing: 'Microphone off',
  thinking: 'Thinking',
  speaking: 'Speaking',
};

const serviceLabel: Record<ServiceStatus, string> = {
  unknown: 'Unknown',
  running: 'Running',
  stopped: 'Stopped',
  starting: 'Starting',
  error: 'Error',
};

const talkTone: Record<TalkState, Tone> = {
  idle: 'neutral',
  connecting: 'info',
  listening: 'success',
  typing: 'neutral',
  thinking: 'info',
  speaking: 'success',
};

// --- layout ----------------------------------------------------------------------------------------

const Top = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space(4)};
  margin-bottom: ${({ theme }) => theme.space(6)};
`;

/** The mode switch: a radio group drawn as a segmented control. */
const Segments = styled.div`
  margin: 0;
  padding: ${({ theme }) => theme.space(1)};
  display: inline-flex;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.surface};
  & > span {
    position: relative;
    display: inline-flex;
  }
  /* The radio covers its segment, invisible, so a click or tap lands on the control itself. */
  input {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    margin: 0;
    opacity: 0;
    cursor: pointer;
    z-index: 1;
  }
  label {
    display: inline-flex;
    align-items: center;
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space(5)};
    border-radius: ${({ theme }) => theme.radii.pill};
    font-weight: 600;
    cursor: pointer;
    color: ${({ theme }) => theme.colors.text};
  }
  input:checked + label {
    background: ${({ theme }) => theme.colors.primary};
    color: ${({ theme }) => theme.colors.primaryText};
  }
  input:focus-visible + label {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const BookPicker = styled.div`
  flex: 0 1 320px;
  min-width: 0;
  select {
    width: 100%;
    max-width: 100%;
  }
`;

const BookLine = styled.section`
  flex: 1 1 100%;
  min-width: 0;
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.lg};
    overflow-wrap: anywhere;
  }
  p {
    margin: ${({ theme }) => theme.space(1)} 0 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
  gap: ${({ theme }) => theme.space(6)};
  align-items: start;
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const CardTitle = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.lg};
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

const TalkPanel = styled(Card)`
  /* On a phone the talk button comes first, above the conversation. */
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    order: -1;
  }
  display: flex;
  flex-direction: column;
  align-items: center;
  text-align: center;
  gap: ${({ theme }) => theme.space(3)};
`;

const TalkButton = styled.button<{ $state: TalkState }>`
  width: 136px;
  height: 136px;
  padding: ${({ theme }) => theme.space(2)};
  border-radius: 50%;
  border: 4px solid
    ${({ theme, $state }) => ($state === 'idle' ? theme.colors.primary : theme.tone[talkTone[$state]].border)};
  background: ${({ theme, $state }) => ($state === 'idle' ? theme.colors.primary : theme.colors.surface)};
  color: ${({ theme, $state }) => ($state === 'idle' ? theme.colors.primaryText : theme.colors.text)};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  display: inline-flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space(1)};
  box-shadow: ${({ theme }) => theme.shadow};
  &:hover:not(:disabled) {
    border-color: ${({ theme }) => theme.colors.primaryHover};
  }
  &:disabled {
    cursor: progress;
    background: ${({ theme }) => theme.tone.info.background};
    color: ${({ theme }) => theme.tone.info.text};
  }
  svg {
    width: 36px;
    height: 36px;
  }
`;

const TalkStatus = styled.p<{ $tone: Tone }>`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: 700;
  color: ${({ theme, $tone }) => theme.tone[$tone].text};
`;

const Small = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  overflow-wrap: anywhere;
`;

const Meters = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Disclosure = styled.details`
  margin-top: ${({ theme }) => theme.space(6)};
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  summary {
    cursor: pointer;
    font-weight: 600;
  }
  dl {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    gap: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
    margin: ${({ theme }) => theme.space(3)} 0;
  }
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
    list-style: none;
    margin: 0;
    padding: 0;
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
`;

function Microphone() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="9" y="2" width="6" height="12" rx="3" />
      <path d="M5 10a7 7 0 0 0 14 0M12 17v5M8 22h8" />
    </svg>
  );
}

// --- the book and where the reader is --------------------------------------------------------------

interface Chapter {
  order: number;
  start: number;
}

/**
 * "You are at chapter 3, 12:40": the chapter playing at `position` and the time into it (the way the
 * assistant's quotes say where they come from); a book of one chapter gives the clock alone.
 */
export function whereLabel(chapters: readonly Chapter[], position: number | null): string {
  if (position === null || position <= 0) return "You haven't started this book yet";
  const sorted = [...chapters].sort((a, b) => a.start - b.start);
  const current = sorted.filter((c) => c.start <= position).at(-1);
  if (sorted.length < 2 || !current) return `You are at ${formatClock(position)}`;
  return `You are at chapter ${current.order}, ${formatClock(position - current.start)}`;
}

const boundLine: Record<AssistantMode, string> = {
  xray: 'X-ray answers only from what you have heard',
  tutor: 'the tutor asks only about what you have heard',
};

/** The books the assistant can talk about: the reader's finished ones (as the library lists them). */
const BOOKS_QUERY = { status: 'listenable', top_level: true, page_size: 100 } as const;
const NO_BOOK = '';

function readQuery(search: string): { mode: AssistantMode | null; jobId: string | null; position: number | null } {
  const query = new URLSearchParams(search);
  const rawMode = query.get('mode');
  const mode = rawMode === 'tutor' || rawMode === 'xray' ? rawMode : null;
  const rawPosition = query.get('position');
  const position =
    rawPosition !== null && rawPosition !== '' && Number.isFinite(Number(rawPosition)) ? Number(rawPosition) : null;
  return { mode, jobId: query.get('jobId') || null, position };
}

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

/**
 * /voice-assistant (docs/voice-assistant.md#the-page): a conversation about a book. Mode (Tutor /
 * X-ray) and the book at the top, the transcript in the main column, the talk button beside it,
 * a question box always available, and the service's workings in a collapsed Details.
 */
export function VoiceAssistant() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const { mode, jobId, position: askedPosition } = readQuery(search);
  const voice = useVoiceAssistant();
  const player = usePlayer();
  const [question, setQuestion] = useState('');
  const metadata = useGetAudioMetadata(jobId ?? '', { query: { enabled: jobId !== null } });
  const saved = useSavedProgress(jobId ?? '', { enabled: jobId !== null && askedPosition === null });
  const books = useListJobs(BOOKS_QUERY);

  // Where the reader is: the player's live position when it holds this book, else the position
  // the page was opened at, else the saved place.
  const live = jobId !== null && player.currentJobId === jobId && !player.isLoading ? player.currentPosition : null;
  const position = live ?? askedPosition ?? saved.data?.position_seconds ?? null;
  const wholePosition = position === null ? null : Math.floor(position);

  useEffect(() => setContext({ mode, jobId, position: wholePosition }), [mode, jobId, wholePosition]);
  useEffect(() => {
    const unwatch = watchStatus();
    return () => {
      unwatch();
      void disconnect();
    };
  }, []);

  // "Continue X": the assistant asked to open a book; it is loaded in the player at once.
  const openSeq = voice.openBook?.seq ?? null;
  const openJobId = voice.openBook?.jobId ?? null;
  useEffect(() => {
    if (openSeq !== null && openJobId !== null && playerState.currentJobId !== openJobId) void loadJob(openJobId);
  }, [openSeq, openJobId]);

  const state = talkState(voice);
  const connected = voice.clientStatus === 'connected';
  const busy = state === 'connecting' || voice.serviceStatus === 'starting';
  const botName = mode ? modeNames[mode] : 'Assistant';
  const examples = mode === 'xray' ? XRAY_EXAMPLES : mode === 'tutor' ? TUTOR_EXAMPLES : LIBRARY_EXAMPLES;
  const listed = jobId ? (books.data?.jobs ?? []).find((job) => job.id === jobId) : undefined;
  const title = listed ? bookTitle(listed) : (metadata.data?.title ?? null);

  // A converting book is not finished yet: the assistant talks about finished ones.
  const bookOptions = [
    { value: NO_BOOK, label: 'No book: your library' },
    ...(books.data?.jobs ?? [])
      .filter((job) => job.status === 'COMPLETED')
      .map((job) => ({ value: job.id, label: bookTitle(job) })),
  ];
  if (jobId && !bookOptions.some((option) => option.value === jobId))
    bookOptions.push({ value: jobId, label: title ?? 'This book' });

  function chooseBook(next: string) {
    // The position belonged to the previous book; the new one starts from its saved place.
    navigate(paths.voiceAssistant({ ...(mode ? { mode } : {}), ...(next ? { jobId: next } : {}) }), { replace: true });
  }

  function chooseMode(next: AssistantMode) {
    navigate(
      paths.voiceAssistant({
        mode: next,
        ...(jobId ? { jobId } : {}),
        ...(askedPosition !== null ? { position: askedPosition } : {}),
      }),
      {
        replace: true,
      },
    );
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    const text = question;
    setQuestion('');
    if (!(await ask(text))) setQuestion((current) => current || text);
  }

  return (
    <Page
      title="Voice Assistant"
      lead="Talk about your books: the tutor asks you questions, X-ray answers who, what and where without spoilers."
    >
      <Top>
        <Segments role="radiogroup" aria-label="Mode">
          {(['tutor', 'xray'] as const).map((value) => (
            <span key={value}>
              <input
                type="radio"
                id={`va-mode-${value}`}
                name="va-mode"
                value={value}
                checked={mode === value}
                onChange={() => chooseMode(value)}
              />
              <label htmlFor={`va-mode-${value}`}>{modeNames[value]}</label>
            </span>
          ))}
        </Segments>
        <BookPicker>
          <SelectField
            label="Book"
            options={bookOptions}
            value={jobId ?? NO_BOOK}
            onChange={(event) => chooseBook(event.target.value)}
          />
        </BookPicker>
        <BookLine aria-labelledby="va-book">
          {jobId ? (
            <>
              <h2 id="va-book">{title ?? (metadata.isError ? 'Book not available' : 'Loading the book…')}</h2>
              {metadata.data && (
                <p>
                  {whereLabel(metadata.data.chapters, position)}
                  {mode ? ` — ${boundLine[mode]}.` : '.'}
                </p>
              )}
            </>
          ) : (
            <>
              <h2 id="va-book">Your library</h2>
              <p>No book chosen: ask about your library, or open a book and choose “Ask about this book”.</p>
            </>
          )}
        </BookLine>
      </Top>

      <Layout>
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

        <TalkPanel aria-labelledby="va-talk">
          <CardTitle id="va-talk">Talk</CardTitle>
          <TalkButton
            type="button"
            $state={state}
            disabled={busy}
            aria-describedby="va-talk-state"
            onClick={() => void (connected ? disconnect() : talk())}
          >
            <Microphone />
            {busy ? 'Connecting…' : connected ? 'End conversation' : 'Start talking'}
          </TalkButton>
          <TalkStatus id="va-talk-state" role="status" $tone={talkTone[state]}>
            {talkLabel[state]}
          </TalkStatus>
          {connected && (
            <Small>
              {voice.sessionMode ? `Talking in ${modeNames[voice.sessionMode]} mode` : 'Talking about your library'}
            </Small>
          )}
          {voice.micProblem && connected && <Small>{`${voice.micProblem} You can still type your questions.`}</Small>}
          {connected && (
            <Meters>
              <label>
                You <meter aria-label="Your microphone level" min={0} max={1} value={voice.levels.local} />
              </label>
              <label>
                {botName} <meter aria-label="Assistant audio level" min={0} max={1} value={voice.levels.remote} />
              </label>
            </Meters>
          )}
          {voice.reconnecting && <Small>Reconnecting…</Small>}
          {voice.error && <Alert>{voice.error}</Alert>}
        </TalkPanel>
      </Layout>

      <Disclosure>
        <summary>Details</summary>
        <dl>
          <dt>Service</dt>
          <dd>{serviceLabel[voice.serviceStatus]}</dd>
          <dt>Connection</dt>
          <dd>
            {voice.clientStatus === 'connected'
              ? 'Connected'
              : voice.clientStatus === 'connecting'
                ? 'Connecting'
                : voice.clientStatus === 'error'
                  ? 'Error'
                  : 'Disconnected'}
          </dd>
          {voice.websocketUrl && (
            <>
              <dt>WebSocket URL</dt>
              <dd>
                <code>{voice.websocketUrl}</code>
              </dd>
            </>
          )}
          {voice.toolNames.length > 0 && (
            <>
              <dt id="va-functions">Functions</dt>
              <dd>
                <ul aria-labelledby="va-functions">
                  {voice.toolNames.map((name) => (
                    <li key={name}>
                      <Badge tone="info">{name}</Badge>
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}
        </dl>
        <Row>
          <Button variant="secondary" onClick={() => void checkStatus()}>
            Refresh status
          </Button>
          <Button
            variant="secondary"
            onClick={() => void start()}
            disabled={voice.serviceStatus === 'running' || voice.serviceStatus === 'starting'}
          >
            Start the service
          </Button>
          <Button
            variant="secondary"
            onClick={() => void stop()}
            disabled={voice.serviceStatus !== 'running' && voice.serviceStatus !== 'error'}
          >
            Stop the service
          </Button>
        </Row>
      </Disclosure>
    </Page>
  );
}
