import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { Card, ListStack } from '../../components/ui';
import { formatClock, formatDuration } from '../../entities/time';
import { useChapters, usePlayer } from './hooks';
import { isChapterPlayable, isPartlyPlayable, playableSeconds } from './chapters';
import { playChapterFromList } from './controls';
import { isReady } from './store';

const Item = styled.button<{ $current: boolean }>`
  font: inherit;
  width: 100%;
  display: flex;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  text-align: left;
  cursor: pointer;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme, $current }) => ($current ? theme.tone.info.border : 'transparent')};
  background: ${({ theme, $current }) => ($current ? theme.tone.info.background : 'transparent')};
  color: ${({ theme, $current }) => ($current ? theme.tone.info.text : theme.colors.text)};
  font-weight: ${({ $current }) => ($current ? 700 : 400)};
  &:hover:not(:disabled) {
    border-color: ${({ theme }) => theme.colors.border};
  }
  &:disabled {
    cursor: not-allowed;
  }
`;

const Meta = styled.span`
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
`;

const NotReady = styled.span`
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Reason = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Heading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;

/** About eight chapters show; a longer list scrolls inside itself, the current chapter kept in view. */
const Scroller = styled.div`
  position: relative;
  max-height: 22rem;
  overflow-y: auto;
  overscroll-behavior: contain;
  margin: 0 -${({ theme }) => theme.space(2)};
  padding: 0 ${({ theme }) => theme.space(2)};
`;

const REASON_ID = 'chapters-not-ready-reason';

/**
 * The loaded book's chapters: jump to one; the playing one is marked (the player has the previous
 * and next chapter buttons). A book still converting marks its chapters not converted yet "Not
 * ready yet": they cannot be chosen (the disabled button names the reason) and Next chapter skips
 * them. A chapter whose opening (its first minutes) is converted says "First minutes ready" and
 * plays.
 */
export function ChapterList() {
  const ready = isReady(usePlayer());
  const { chapters, current } = useChapters();
  const waiting = chapters.filter((chapter) => !isChapterPlayable(chapter)).length;
  const opening = chapters.find(isPartlyPlayable);
  const scroller = useRef<HTMLDivElement>(null);
  const currentId = current?.id;

  useEffect(() => {
    // Scroll the list (never the page) so the current chapter is in view.
    const box = scroller.current;
    const item = currentId ? box?.querySelector<HTMLElement>(`[data-chapter="${CSS.escape(currentId)}"]`) : null;
    if (!box || !item) return;
    const top = item.offsetTop;
    if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }, [currentId, chapters.length]);

  if (chapters.length === 0) return null;
  return (
    <Card aria-labelledby="chapters-heading">
      <Heading id="chapters-heading">Chapters</Heading>
      {opening && (
        <Reason>{`${opening.title} is still converting: its first minutes play now, the rest follows as soon as it is ready.`}</Reason>
      )}
      {waiting > 0 && (
        <Reason id={REASON_ID}>
          {`This book is still converting: ${waiting === 1 ? '1 chapter is' : `${waiting} chapters are`} not ready yet and can be played once converted.`}
        </Reason>
      )}
      <Scroller ref={scroller}>
        <ListStack $gap={1}>
          {chapters.map((chapter) => {
            const isCurrent = chapter === current;
            const playable = isChapterPlayable(chapter);
            const firstMinutes = isPartlyPlayable(chapter);
            return (
              <li key={chapter.id}>
                <Item
                  type="button"
                  data-chapter={chapter.id}
                  $current={isCurrent}
                  aria-current={isCurrent ? 'true' : undefined}
                  aria-describedby={playable ? undefined : REASON_ID}
                  disabled={!ready || !playable}
                  onClick={() => playChapterFromList(chapter.id)}
                >
                  <span>{`${chapter.order}. ${chapter.title}`}</span>
                  {firstMinutes ? (
                    <NotReady>{`First minutes ready · ${formatDuration(playableSeconds(chapter))}`}</NotReady>
                  ) : playable ? (
                    <Meta>{`${formatClock(chapter.start)} · ${formatDuration(chapter.duration)}`}</Meta>
                  ) : (
                    <NotReady>Not ready yet</NotReady>
                  )}
                </Item>
              </li>
            );
          })}
        </ListStack>
      </Scroller>
    </Card>
  );
}
