import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { JobPreview } from '../../api/gen/model';
import { Alert, FieldMessage, ListStack, Spinner } from '../../components/ui';
import { chosenTotals, costLines, formatListening } from '../../features/upload';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
`;

const Heading = styled.h2`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.md};
`;

const List = styled(ListStack)`
  max-height: 24rem;
  overflow-y: auto;
`;

const Row = styled.li`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr) 13rem;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
`;

const TitleInput = styled.input`
  font: inherit;
  padding: ${({ theme }) => `${theme.space(1)} ${theme.space(2)}`};
  border: 1px solid ${({ theme }) => theme.colors.textMuted};
  border-radius: 6px;
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  min-width: 0;
`;

const Muted = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  white-space: nowrap;
  text-align: right;
`;

const Summary = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${({ theme }) => `${theme.space(1)} ${theme.space(3)}`};
  margin: 0;
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
  }
`;

const Costs = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;

export type PreviewState =
  { status: 'loading' } | { status: 'ready'; preview: JobPreview } | { status: 'error'; message: string };

/**
 * What the job will be before it is created: the book's chapters (a checkbox and an editable
 * title each), `children` (the full cast, when asked for), the estimated listening time and what
 * each available voice costs.
 */
export function ChapterPreview({
  state,
  selected,
  titles,
  onToggle,
  onTitle,
  children,
}: {
  state: PreviewState;
  selected: ReadonlySet<number>;
  titles: Readonly<Record<number, string>>;
  onToggle: (index: number, on: boolean) => void;
  onTitle: (index: number, title: string) => void;
  children?: ReactNode;
}) {
  if (state.status === 'loading') {
    return (
      <Section aria-labelledby="preview-heading" aria-busy="true">
        <Heading id="preview-heading">Preview</Heading>
        <Spinner label="Reading the chapters and estimating the listening time..." />
      </Section>
    );
  }
  if (state.status === 'error') {
    return (
      <Section aria-labelledby="preview-heading">
        <Heading id="preview-heading">Preview</Heading>
        <Alert tone="error">{state.message}</Alert>
      </Section>
    );
  }
  const { preview } = state;
  const book = preview.job_type === 'book_processing';
  const totals = chosenTotals(preview, selected);
  return (
    <Section aria-labelledby="preview-heading">
      <Heading id="preview-heading">
        {book ? `Chapters (${selected.size} of ${preview.chapters.length} chosen)` : 'Preview'}
      </Heading>
      {book && (
        <List $gap={2} aria-label="Chapters">
          {preview.chapters.map((c) => {
            const n = c.index + 1;
            return (
              <Row key={c.index}>
                <input
                  type="checkbox"
                  checked={selected.has(c.index)}
                  aria-label={`Convert chapter ${n}`}
                  onChange={(e) => onToggle(c.index, e.target.checked)}
                />
                <TitleInput
                  aria-label={`Title of chapter ${n}`}
                  value={titles[c.index] ?? c.title}
                  maxLength={200}
                  disabled={!selected.has(c.index)}
                  onChange={(e) => onTitle(c.index, e.target.value)}
                />
                <Muted>
                  {c.words.toLocaleString('en-US')} words · {formatListening(c.estimated_seconds)}
                </Muted>
              </Row>
            );
          })}
        </List>
      )}
      {book && selected.size === 0 && <FieldMessage $error>Choose at least one chapter to convert.</FieldMessage>}
      {children}
      <div role="group" aria-label="Estimate">
        <Summary>
          {preview.author && (
            <>
              <dt>Author</dt>
              <dd>{preview.author}</dd>
            </>
          )}
          <dt>Listening time</dt>
          <dd>{formatListening(totals.seconds)}</dd>
          <dt>Characters</dt>
          <dd>{totals.characters.toLocaleString('en-US')}</dd>
          <dt>Cost</dt>
          <dd>
            <Costs>
              {costLines(preview, totals.characters).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </Costs>
          </dd>
        </Summary>
      </div>
    </Section>
  );
}
