import type { ReactNode } from 'react';
import styled, { useTheme } from 'styled-components';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => `${theme.space(8)} ${theme.space(4)}`};
  text-align: center;
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.lg};
  background: ${({ theme }) => theme.colors.surface};
  h2,
  h3 {
    margin: 0;
    font-family: ${({ theme }) => theme.fonts.book};
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }
  p {
    margin: 0;
    max-width: 36ch;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** An open book with sound rising from it, in the theme's colours: decoration only. */
function Illustration() {
  const { illustration } = useTheme();
  return (
    <svg width="120" height="84" viewBox="0 0 120 84" aria-hidden="true" focusable="false">
      <path
        d="M10 22 Q35 14 60 24 L60 78 Q35 68 10 76 Z"
        fill={illustration.paper}
        stroke={illustration.line}
        strokeWidth="2"
      />
      <path
        d="M110 22 Q85 14 60 24 L60 78 Q85 68 110 76 Z"
        fill={illustration.paper}
        stroke={illustration.line}
        strokeWidth="2"
      />
      {[34, 42, 50].map((y) => (
        <g key={y} stroke={illustration.line} strokeWidth="2" strokeLinecap="round">
          <line x1="20" y1={y} x2="50" y2={y + 2} />
          <line x1="70" y1={y + 2} x2="100" y2={y} />
        </g>
      ))}
      <g fill="none" stroke={illustration.accent} strokeWidth="3" strokeLinecap="round">
        <path d="M52 12 Q60 4 68 12" />
        <path d="M46 8 Q60 -6 74 8" opacity="0.6" />
      </g>
    </svg>
  );
}

/**
 * What a list says when it has nothing to show: a small drawing, a heading, one line of why, and
 * one clear action (`action`). `level` is the heading's level in its page.
 */
export function EmptyState({
  title,
  children,
  action,
  level = 2,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <Box>
      <Illustration />
      <Heading>{title}</Heading>
      {children && <p>{children}</p>}
      {action}
    </Box>
  );
}
