import type { ReactNode } from 'react';
import styled from 'styled-components';

const Wrapper = styled.div`
  max-width: 1100px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space(8)} ${theme.space(4)}`};
`;

const Title = styled.h1`
  margin: 0 0 ${({ theme }) => theme.space(2)};
  font-size: ${({ theme }) => theme.fontSizes.title};
`;

export const Lead = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(6)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** A screen's frame: its heading (the page's h1) and an optional lead line. */
export function Page({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <Wrapper>
      <Title>{title}</Title>
      {lead && <Lead>{lead}</Lead>}
      {children}
    </Wrapper>
  );
}
