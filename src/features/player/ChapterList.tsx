import styled from 'styled-components';
import { Card, ListStack } from '../../components/ui';
import { formatClock, formatDuration } from '../../entities/time';
import { useChapters, usePlayer } from './hooks';
import { isChapterReady } from './chapters';
import { jumpToChapter } from './controls';
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

const REASON_ID = 'chapters-not-ready-reason';

/**
 * The loaded book's chapters: jump to one; the playing one is marked (the player has the previous
 * and next chapter buttons). A book still converting marks its chapters not converted yet "Not
 * ready yet": they cannot be chosen (the disabled button names the reason) and Next chapter skips
 * them.
 */
export function ChapterList() {
  const ready = isReady(usePlayer());
  const { chapters, current } = useChapters();
  const waiting = chapters.filter((chapter) => !isChapterReady(chapter)).length;
  if (chapters.length === 0) return null;
  return (
    <Card aria-labelledby="chapters-heading">
      <Heading id="chapters-heading">Chapters</Heading>
      {waiting > 0 && (
        <Reason id={REASON_ID}>
          {`This book is still converting: ${waiting === 1 ? '1 chapter is' : `${waiting} chapters are`} not ready yet and can be played once converted.`}
        </Reason>
      )}
      <ListStack $gap={1}>
        {chapters.map((chapter) => {
          const isCurrent = chapter === current;
          const playable = isChapterReady(chapter);
          return (
            <li key={chapter.id}>
              <Item
                type="button"
                $current={isCurrent}
                aria-current={isCurrent ? 'true' : undefined}
                aria-describedby={playable ? undefined : REASON_ID}
                disabled={!ready || !playable}
                onClick={() => jumpToChapter(chapter.id)}
              >
                <span>{`${chapter.order}. ${chapter.title}`}</span>
                {playable ? (
                  <Meta>{`${formatClock(chapter.start)} · ${formatDuration(chapter.duration)}`}</Meta>
                ) : (
                  <NotReady>Not ready yet</NotReady>
                )}
              </Item>
            </li>
          );
        })}
      </ListStack>
    </Card>
  );
}
