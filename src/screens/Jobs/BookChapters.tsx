import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import { Alert, ButtonLink, Spinner, StatusBadge } from '../../components/ui';
import { paths } from '../../lib/paths';
import { chapterTitle, jobTitle } from '../../entities/job';
import { useBookChapters } from '../../features/jobs';
import { playChapter } from '../../features/player';

const List = styled.ol`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(2)};
  margin: 0;
  padding: 0;
  list-style: none;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  padding-top: ${({ theme }) => theme.space(3)};
`;

const Row = styled.li`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
  span.title {
    flex: 1;
    min-width: 12rem;
    overflow-wrap: anywhere;
  }
`;

/**
 * The chapter jobs of an opened book in the jobs list, in chapter order (GET /jobs/{id}'s
 * children; docs/listening.md#chapter-order), each with its status, Play when done (the book
 * from that chapter), and View.
 */
export function BookChapters({ bookId, bookTitle }: { bookId: string; bookTitle: string }) {
  const { chapters, isLoading, error } = useBookChapters(bookId, { enabled: true });
  if (isLoading) return <Spinner label="Loading chapters..." />;
  if (error || !chapters) return <Alert>{errorMessage(error, 'Failed to load chapters')}</Alert>;
  if (chapters.length === 0) return <p>No chapter jobs yet.</p>;
  return (
    <List aria-label={`Chapters of ${bookTitle}`}>
      {chapters.map((chapter) => {
        const name = chapterTitle(chapter, bookTitle);
        const full = jobTitle(chapter);
        return (
          <Row key={chapter.id}>
            <span className="title">{name}</span>
            <StatusBadge status={chapter.status} />
            {chapter.status === 'COMPLETED' && (
              // THE BOOK plays, from this chapter, on the book's page (never the chapter as a book).
              <ButtonLink
                variant="primary"
                href={paths.libraryBook(bookId)}
                onClick={() => void playChapter(bookId, chapter.id)}
              >
                Play
                <span className="visually-hidden"> {full}</span>
              </ButtonLink>
            )}
            <ButtonLink href={paths.job(chapter.id)}>
              View
              <span className="visually-hidden"> {full}</span>
            </ButtonLink>
          </Row>
        );
      })}
    </List>
  );
}
