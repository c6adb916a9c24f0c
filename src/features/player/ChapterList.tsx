import styled from 'styled-components';
import { Button, Card, ListStack } from '../../components/ui';
import { formatClock, formatDuration } from '../../entities/time';
import { useChapters, usePlayer } from './hooks';
import { jumpToChapter, nextChapter, previousChapter } from './store';

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
  &:hover:not(:disabled) { border-color: ${({ theme }) => theme.colors.border}; }
  &:disabled { cursor: not-allowed; }
`;

const Meta = styled.span`
  font-variant-numeric: tabular-nums;
  white-space: nowrap;
`;

const Heading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: 1.125rem;
`;

const Row = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(2)};
  margin-bottom: ${({ theme }) => theme.space(3)};
`;

/** The loaded book's chapters: jump to one, step to the next or previous; the playing one is marked. */
export function ChapterList() {
  const { streamingUrl, isLoading } = usePlayer();
  const { chapters, current } = useChapters();
  const ready = Boolean(streamingUrl) && !isLoading;
  const index = current ? chapters.indexOf(current) : -1;
  if (chapters.length === 0) return null;
  return (
    <Card aria-labelledby="chapters-heading">
      <Heading id="chapters-heading">Chapters</Heading>
      <Row>
        <Button variant="secondary" onClick={previousChapter} disabled={!ready}>
          Previous chapter
        </Button>
        <Button variant="secondary" onClick={nextChapter} disabled={!ready || index >= chapters.length - 1}>
          Next chapter
        </Button>
      </Row>
      <ListStack $gap={1}>
        {chapters.map((chapter) => {
          const isCurrent = chapter === current;
          return (
            <li key={chapter.id}>
              <Item
                type="button"
                $current={isCurrent}
                aria-current={isCurrent ? 'true' : undefined}
                disabled={!ready}
                onClick={() => jumpToChapter(chapter.id)}
              >
                <span>{`${chapter.order}. ${chapter.title}`}</span>
                <Meta>{`${formatClock(chapter.start)} · ${formatDuration(chapter.duration)}`}</Meta>
              </Item>
            </li>
          );
        })}
      </ListStack>
    </Card>
  );
}
