import type { ReactNode } from 'react';
import styled from 'styled-components';

const Box = styled.details`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  summary {
    cursor: pointer;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.textMuted};
    padding: ${({ theme }) => `${theme.space(1)} 0`};
  }
  &[open] summary {
    margin-bottom: ${({ theme }) => theme.space(2)};
  }
  summary:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

/**
 * A closed-by-default disclosure (<details>) for what most readers never need: ids, engines,
 * timestamps. Primary views keep such things here, not in their first glance.
 */
export function Disclosure({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <Box>
      <summary>{summary}</summary>
      {children}
    </Box>
  );
}
