import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { Tone } from '../../styles/theme';

export type AlertTone = 'error' | 'info' | 'success';

const toneOf: Record<AlertTone, Tone> = { error: 'danger', info: 'info', success: 'success' };

const Box = styled.div<{ $tone: Tone }>`
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme, $tone }) => theme.tone[$tone].border};
  background: ${({ theme, $tone }) => theme.tone[$tone].background};
  color: ${({ theme, $tone }) => theme.tone[$tone].text};
`;

/** Errors are announced at once (role="alert"); info and success politely (role="status"). */
export function Alert({ tone = 'error', children }: { tone?: AlertTone; children: ReactNode }) {
  return (
    <Box role={tone === 'error' ? 'alert' : 'status'} $tone={toneOf[tone]}>
      {children}
    </Box>
  );
}
