import styled from 'styled-components';
import { statusTone } from '../../components/ui';

const glyphs: Record<string, string> = {
  PENDING: '○',
  PROCESSING: '◔',
  COMPLETED: '✓',
  FAILED: '✕',
  CANCELLED: '⊘',
};

const Circle = styled.span<{ $tone: ReturnType<typeof statusTone> }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: 2rem;
  height: 2rem;
  border-radius: 50%;
  font-weight: 700;
  background: ${({ theme, $tone }) => theme.tone[$tone].background};
  color: ${({ theme, $tone }) => theme.tone[$tone].text};
  border: 1px solid ${({ theme, $tone }) => theme.tone[$tone].border};
`;

/** A job status at a glance, in the badge colours. Decorative: the status badge beside it says it in words. */
export function JobStatusIcon({ status }: { status: string }) {
  return (
    <Circle $tone={statusTone(status)} aria-hidden="true" data-status={status}>
      {glyphs[status.toUpperCase()] ?? '•'}
    </Circle>
  );
}
