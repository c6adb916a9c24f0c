import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { Tone } from '../../styles/theme';

const Pill = styled.span<{ $tone: Tone }>`
  display: inline-block;
  padding: 0 ${({ theme }) => theme.space(2)};
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  line-height: 1.6;
  background: ${({ theme, $tone }) => theme.tone[$tone].background};
  color: ${({ theme, $tone }) => theme.tone[$tone].text};
  border: 1px solid ${({ theme, $tone }) => theme.tone[$tone].border};
`;

export function Badge({
  tone = 'neutral',
  children,
  ...rest
}: {
  tone?: Tone;
  children: ReactNode;
  'aria-hidden'?: boolean | 'true';
}) {
  return (
    <Pill $tone={tone} {...rest}>
      {children}
    </Pill>
  );
}

/** docs/product.md#job-statuses: completed green; pending or processing accent-coloured (warm orange); failed red; cancelled or other grey. */
export function statusTone(status: string): Tone {
  switch (status.toUpperCase()) {
    case 'COMPLETED':
      return 'success';
    case 'PENDING':
    case 'PROCESSING':
    case 'RUNNING':
      return 'info';
    case 'FAILED':
      return 'danger';
    default:
      return 'neutral';
  }
}

/** A job or step status as the screen shows it (job statuses upper case; step statuses arrive upper case and screens lowercase them). */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{status}</Badge>;
}
