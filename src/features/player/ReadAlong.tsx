import {
  Fragment,
  useEffect,
  useId,
  useRef,
  useState,
  type HTMLAttributes,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import styled from 'styled-components';
import { useGetAudioTranscript } from '../../api/gen/endpoints/audio';
import type { TranscriptSentenceOutput } from '../../api/gen/model';
import { ApiError, errorMessage } from '../../api/errors';
import { Button, Card, SectionHeader, Spinner } from '../../components/ui';
import type { Tone } from '../../styles/theme';
import { useChapters, usePlayer } from './hooks';
import { paragraphsOf, partsOf, sentenceAt, spokenWord, type ReadAlongSpeakers, type SentencePart } from './readAlong';
import { seek } from './controls';
import { isReady } from './store';
import { isChapterReady } from './chapters';

const Box = styled.div`
  position: relative;
  max-height: 22rem;
  overflow-y: auto;
  padding-right: ${({ theme }) => theme.space(2)};
  line-height: 1.7;
  font-size: ${({ theme }) => theme.fontSizes.lg};
  p {
    margin: 0 0 ${({ theme }) => theme.space(3)};
  }
`;

const Sentence = styled.span`
  cursor: pointer;
  border-radius: ${({ theme }) => theme.radii.sm};
  padding: 1px 2px;
  &:hover {
    background: ${({ theme }) => theme.tone.neutral.background};
  }
  &[aria-current='true'] {
    background: ${({ theme }) => theme.tone.info.background};
    color: ${({ theme }) => theme.tone.info.text};
  }
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
`;

/** The word being spoken, when the voice timed its words. */
const Word = styled.span`
  text-decoration: underline 2px;
  text-underline-offset: 3px;
`;

/** A quoted part of a full-cast book: underlined in its speaker's tone (its name follows it). */
const Quote = styled.span<{ $tone: Tone; $uncertain: boolean }>`
  text-decoration: underline ${({ $uncertain }) => ($uncertain ? 'dashed' : 'solid')} 2px;
  text-decoration-color: ${({ theme, $tone }) => theme.tone[$tone].border};
  text-underline-offset: 4px;
`;

const Notices = styled.div`
  margin-bottom: ${({ theme }) => theme.space(3)};
`;

const Note = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Keys that scroll the text: the reader is looking around, so the view stops following. */
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End']);

/**
 * The book's text, read along (docs/listening.md#read-along-transcript): the current chapter's
 * sentences, the one being spoken highlighted (`aria-current="true"`) and kept in view while the
 * book plays. Scrolling the text by hand stops the following until "Follow along"; clicking a
 * sentence, or Enter on it, plays from there. ↑/↓ move between sentences. With `speakers` (a
 * full-cast book) each quote is underlined in its speaker's tone and followed by its speaker's
 * menu; clicking the quote opens that menu instead of playing from it.
 */
export function ReadAlong({ jobId, speakers }: { jobId: string; speakers?: ReadAlongSpeakers | undefined }) {
  const player = usePlayer();
  const { current } = useChapters();
  const loaded = player.currentJobId === jobId && isReady(player);
  const chapterOrder = loaded && current ? current.order : 1;
  const chapterStart = loaded && current ? current.start : 0;
  const transcript = useGetAudioTranscript(
    jobId,
    { chapter: chapterOrder },
    { query: { retry: false, staleTime: Infinity } },
  );
  const sentences = transcript.data?.sentences ?? [];
  const spoken = loaded ? sentenceAt(sentences, player.currentPosition - chapterStart) : -1;
  const [following, setFollowing] = useState(true);
  const [focused, setFocused] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const menuIds = useId();

  useEffect(() => {
    const container = box.current;
    if (!following || spoken < 0 || !container) return;
    const follow = () => {
      const element = container.querySelector<HTMLElement>(`[data-index="${spoken}"]`);
      if (!element) return;
      const top = Math.max(0, element.offsetTop - container.clientHeight / 3);
      if (typeof container.scrollTo === 'function')
        container.scrollTo({ top, behavior: reducedMotion() ? 'auto' : 'smooth' });
      else container.scrollTop = top;
    };
    follow();
    // The box may take its size after the sentence was brought into view (the page's layout
    // settling, a window resized, a phone turned): the sentence is brought into view again then.
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(follow);
    observer.observe(container);
    return () => observer.disconnect();
  }, [spoken, following, transcript.data]);

  const playFrom = (index: number) => {
    const sentence = sentences[index];
    if (!sentence || !loaded) return;
    seek(chapterStart + sentence.start);
    setFollowing(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      playFrom(index);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = box.current?.querySelector<HTMLElement>(
        `[data-index="${index + (event.key === 'ArrowDown' ? 1 : -1)}"]`,
      );
      if (next) {
        setFollowing(false);
        next.focus();
      }
    }
  };

  // Only one sentence is in the tab order (the spoken one, else the first): Tab passes the text.
  // Its quotes' speaker menus follow it (the focused sentence's, once one has the focus).
  const tabStop = spoken >= 0 ? spoken : 0;
  const menusOf = focused ?? tabStop;
  const chapterNumber = transcript.data?.chapter.order ?? chapterOrder;
  const notReady = transcript.error instanceof ApiError && transcript.error.status === 409;
  // A chapter that was still converting (its opening playing) has its text once it is ready.
  const chapterReady = loaded && current ? isChapterReady(current) : false;
  const { refetch } = transcript;
  useEffect(() => {
    if (chapterReady && notReady) void refetch();
  }, [chapterReady, notReady, refetch]);

  return (
    <Card aria-labelledby="read-along-heading">
      <SectionHeader>
        <h2 id="read-along-heading">Read along</h2>
        {!following && spoken >= 0 && (
          <Button variant="secondary" onClick={() => setFollowing(true)}>
            Follow along
          </Button>
        )}
      </SectionHeader>
      {speakers?.notice && <Notices>{speakers.notice}</Notices>}
      {transcript.isLoading ? (
        <Spinner label="Loading the text..." />
      ) : notReady ? (
        <Note>This chapter is still converting: its text appears here when it is ready.</Note>
      ) : transcript.error && !transcript.data ? (
        // A text already at hand is shown though a later ask failed (a kept book's, offline).
        <Note role="alert">{errorMessage(transcript.error, 'The text could not be loaded')}</Note>
      ) : (
        <Box
          ref={box}
          aria-label={`Text of ${transcript.data?.chapter.title ?? 'the chapter'}`}
          role="group"
          onWheel={() => setFollowing(false)}
          onTouchMove={() => setFollowing(false)}
          onKeyDown={(event) => SCROLL_KEYS.has(event.key) && setFollowing(false)}
        >
          {paragraphsOf(sentences).map((paragraph) => (
            <p key={paragraph[0]!.index}>
              {paragraph
                .map((sentence) => (
                  <SentenceLine
                    key={sentence.index}
                    sentence={sentence}
                    seconds={sentence.index === spoken ? player.currentPosition - chapterStart : null}
                    menuId={`${menuIds}-${sentence.index}`}
                    chapter={chapterNumber}
                    speakers={speakers}
                    menusTabbable={sentence.index === menusOf}
                    sentenceProps={{
                      tabIndex: sentence.index === tabStop ? 0 : -1,
                      'aria-current': sentence.index === spoken ? 'true' : undefined,
                      'aria-disabled': loaded ? undefined : true,
                      onClick: () => playFrom(sentence.index),
                      onKeyDown: (event) => onKeyDown(event, sentence.index),
                      onFocus: () => setFocused(sentence.index),
                    }}
                  />
                ))
                .flatMap((node, i) => (i === 0 ? [node] : [' ', node]))}
            </p>
          ))}
        </Box>
      )}
    </Card>
  );
}

/**
 * One sentence of the read-along (a button playing from it) and, with `speakers`, its quotes'
 * speaker menus after it.
 */
function SentenceLine({
  sentence,
  seconds,
  menuId,
  chapter,
  speakers,
  menusTabbable,
  sentenceProps,
}: {
  sentence: TranscriptSentenceOutput;
  /** Seconds into the chapter, for the sentence being spoken; null for the others. */
  seconds: number | null;
  /** The prefix of its menus' ids. */
  menuId: string;
  chapter: number;
  speakers: ReadAlongSpeakers | undefined;
  menusTabbable: boolean;
  sentenceProps: Pick<
    HTMLAttributes<HTMLSpanElement>,
    'tabIndex' | 'aria-current' | 'aria-disabled' | 'onClick' | 'onKeyDown' | 'onFocus'
  >;
}) {
  const quotes = speakers ? partsOf(sentence).filter((part) => part.quoteStart !== undefined) : [];
  const idOf = (part: SentencePart) => `${menuId}-${part.from}`;
  return (
    <>
      <Sentence role="button" data-index={sentence.index} {...sentenceProps}>
        <SentenceText sentence={sentence} seconds={seconds} speakers={speakers} menuOf={idOf} />
      </Sentence>
      {quotes.map((part) => (
        <Fragment key={part.from}>
          {speakers?.menu({
            id: idOf(part),
            chapter,
            quoteStart: part.quoteStart!,
            speaker: part.speaker ?? 'narrator',
            uncertain: part.uncertain === true,
            tabbable: menusTabbable,
          })}
        </Fragment>
      ))}
    </>
  );
}

/**
 * A sentence's text: the spoken one's spoken word underlined when the voice timed its words
 * (docs/listening.md), a full-cast book's quotes underlined in their speakers' tones (dashed when
 * who speaks is a guess). A click on a quote opens its speaker's menu (`menuOf` names it) instead
 * of playing from the sentence.
 */
function SentenceText({
  sentence,
  seconds,
  speakers,
  menuOf,
}: {
  sentence: TranscriptSentenceOutput;
  seconds: number | null;
  speakers: ReadAlongSpeakers | undefined;
  menuOf: (part: SentencePart) => string;
}) {
  const word = seconds === null ? null : spokenWord(sentence, seconds);
  const { text } = sentence;
  /** [from, to) of the text, its spoken word underlined when it lies there. */
  const withWord = (from: number, to: number) => {
    if (word === null || word.to <= from || word.from >= to) return text.slice(from, to);
    const a = Math.max(from, word.from);
    const b = Math.min(to, word.to);
    return (
      <>
        {text.slice(from, a)}
        <Word data-word-current="true">{text.slice(a, b)}</Word>
        {text.slice(b, to)}
      </>
    );
  };
  const parts = speakers ? partsOf(sentence) : [];
  if (!speakers || parts.every((part) => part.quoteStart === undefined)) return <>{withWord(0, text.length)}</>;
  const openMenu = (event: MouseEvent, part: SentencePart) => {
    event.stopPropagation();
    document.getElementById(menuOf(part))?.click();
  };
  return (
    <>
      {parts.map((part) =>
        part.quoteStart === undefined ? (
          <Fragment key={part.from}>{withWord(part.from, part.to)}</Fragment>
        ) : (
          <Quote
            key={part.from}
            data-quote-start={part.quoteStart}
            $tone={speakers.toneOf(part.speaker ?? 'narrator')}
            $uncertain={part.uncertain === true}
            onClick={(event) => openMenu(event, part)}
          >
            {withWord(part.from, part.to)}
          </Quote>
        ),
      )}
    </>
  );
}
