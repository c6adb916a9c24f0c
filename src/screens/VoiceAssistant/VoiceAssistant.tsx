import { useEffect } from 'react';
import styled from 'styled-components';
import { useLocation, useSearch } from 'wouter';
import { useGetAudioMetadata } from '../../api/gen/endpoints/audio';
import { useListJobs } from '../../api/gen/endpoints/jobs';
import { Page } from '../../components/ui';
import { bookTitle } from '../../entities/job';
import { playFrom, useListeningPosition } from '../../features/player';
import {
  disconnect,
  loadConversation,
  setContext,
  useVoiceAssistant,
  watchStatus,
} from '../../features/voice-assistant';
import { paths, type AssistantMode } from '../../lib/paths';
import { BookBar, NO_BOOK } from './BookBar';
import { modeNames } from './parts';
import { TalkPanel } from './TalkPanel';
import { TranscriptPanel } from './TranscriptPanel';

export const XRAY_EXAMPLES = ['Who is this character?', 'Where does the story take place?', 'What just happened?'];
export const TUTOR_EXAMPLES = ['Ask me a question about the book', 'Why did she refuse?', 'Next question'];
export const LIBRARY_EXAMPLES = ['What books are in my library?', 'What was I listening to?', 'Continue my last book'];

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
  gap: ${({ theme }) => theme.space(6)};
  align-items: start;
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

/** The books the assistant can talk about: the reader's finished ones (as the library lists them). */
const BOOKS_QUERY = { status: 'listenable', top_level: true, page_size: 100 } as const;

function readQuery(search: string): { mode: AssistantMode | null; jobId: string | null; position: number | null } {
  const query = new URLSearchParams(search);
  const rawMode = query.get('mode');
  const mode = rawMode === 'tutor' || rawMode === 'xray' ? rawMode : null;
  const rawPosition = query.get('position');
  const position =
    rawPosition !== null && rawPosition !== '' && Number.isFinite(Number(rawPosition)) ? Number(rawPosition) : null;
  return { mode, jobId: query.get('jobId') || null, position };
}

/**
 * /voice-assistant (docs/voice-assistant.md#the-page): a conversation about a book. Mode (Tutor /
 * X-ray) and the book at the top, the transcript in the main column, the talk button beside it,
 * a question box always available. Nothing of the service's workings (addresses, tool names,
 * starting and stopping it) is shown: operators have /metrics and the logs.
 */
export function VoiceAssistant() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const { mode, jobId, position: askedPosition } = readQuery(search);
  const voice = useVoiceAssistant();
  const metadata = useGetAudioMetadata(jobId ?? '', { query: { enabled: jobId !== null } });
  const books = useListJobs(BOOKS_QUERY);
  const position = useListeningPosition(jobId, askedPosition);
  const wholePosition = position === null ? null : Math.floor(position);

  useEffect(() => setContext({ mode, jobId, position: wholePosition }), [mode, jobId, wholePosition]);
  // The kept conversation about the book (and its recap after a break).
  useEffect(() => void loadConversation(jobId), [jobId]);
  useEffect(() => {
    const unwatch = watchStatus();
    return () => {
      unwatch();
      void disconnect();
    };
  }, []);

  // "Continue X": the assistant asked to open a book; it plays at once from the listener's place
  // (the place before is offered as "Back to …").
  const openSeq = voice.openBook?.seq ?? null;
  const openJobId = voice.openBook?.jobId ?? null;
  const openAt = voice.openBook?.positionSeconds ?? 0;
  useEffect(() => {
    if (openSeq !== null && openJobId !== null) void playFrom(openJobId, openAt);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per request (its seq), at its place
  }, [openSeq, openJobId]);

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

  function chooseMode(next: AssistantMode | null) {
    navigate(
      paths.voiceAssistant({
        ...(next ? { mode: next } : {}),
        ...(jobId ? { jobId } : {}),
        ...(askedPosition !== null ? { position: askedPosition } : {}),
      }),
      { replace: true },
    );
  }

  return (
    <Page
      title="Voice Assistant"
      lead="Talk about your books: the tutor asks you questions, X-ray answers who, what and where without spoilers."
    >
      <BookBar
        mode={mode}
        jobId={jobId}
        title={title}
        chapters={metadata.data?.chapters ?? null}
        bookMissing={metadata.isError}
        position={position}
        bookOptions={bookOptions}
        chooseMode={chooseMode}
        chooseBook={chooseBook}
      />
      <Layout>
        <TranscriptPanel botName={botName} examples={examples} jobId={jobId} />
        <TalkPanel botName={botName} />
      </Layout>
    </Page>
  );
}
