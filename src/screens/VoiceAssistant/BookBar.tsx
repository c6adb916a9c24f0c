import styled from 'styled-components';
import { SelectField } from '../../components/ui';
import { formatClock } from '../../entities/time';
import type { AssistantMode } from '../../lib/paths';
import { modeNames } from './parts';

const Top = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space(4)};
  margin-bottom: ${({ theme }) => theme.space(6)};
`;

/** The mode switch (Library, Tutor, X-ray): a radio group drawn as a segmented control. */
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

export const NO_BOOK = '';

export interface BookBarProps {
  mode: AssistantMode | null;
  jobId: string | null;
  title: string | null;
  /** The book's chapters with their start times, once known. */
  chapters: readonly Chapter[] | null;
  bookMissing: boolean;
  position: number | null;
  bookOptions: readonly { value: string; label: string }[];
  /** null: talk about the library (no tutor, no X-ray). */
  chooseMode(mode: AssistantMode | null): void;
  chooseBook(jobId: string): void;
}

/** The mode switch, the book chooser, and where the reader is in the book. */
export function BookBar({
  mode,
  jobId,
  title,
  chapters,
  bookMissing,
  position,
  bookOptions,
  chooseMode,
  chooseBook,
}: BookBarProps) {
  return (
    <Top>
      <Segments role="radiogroup" aria-label="Mode">
        {([null, 'tutor', 'xray'] as const).map((value) => (
          <span key={value ?? 'library'}>
            <input
              type="radio"
              id={`va-mode-${value ?? 'library'}`}
              name="va-mode"
              value={value ?? 'library'}
              checked={mode === value}
              onChange={() => chooseMode(value)}
            />
            <label htmlFor={`va-mode-${value ?? 'library'}`}>{value ? modeNames[value] : 'Library'}</label>
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
            <h2 id="va-book">{title ?? (bookMissing ? 'Book not available' : 'Loading the book…')}</h2>
            {chapters && (
              <p>
                {whereLabel(chapters, position)}
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
  );
}
