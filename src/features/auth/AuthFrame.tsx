import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Card } from '../../components/ui';

const Main = styled.main`
  min-height: 100vh;
  display: flex;
  align-items: flex-start;
  justify-content: center;
  padding: ${({ theme }) => `${theme.space(16)} ${theme.space(4)}`};
`;

const Panel = styled(Card)`
  width: 100%;
  max-width: 420px;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
`;

const Brand = styled.p`
  margin: 0;
  font-weight: 800;
  font-size: ${({ theme }) => theme.fontSizes.xl};
  color: ${({ theme }) => theme.colors.primary};
`;

const Title = styled.h1`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.xxl};
`;

export const FormStack = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
`;

export const Aside = styled.p`
  margin: 0;
  text-align: center;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** The signed-out screens' frame: brand, heading and a card holding the form. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Main>
      <Panel as="div">
        <Brand>Lectio</Brand>
        <Title>{title}</Title>
        {children}
      </Panel>
    </Main>
  );
}
