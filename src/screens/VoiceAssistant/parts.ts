import styled from 'styled-components';
import type { AssistantMode } from '../../lib/paths';

export const modeNames: Record<AssistantMode, string> = { tutor: 'Tutor', xray: 'X-ray' };

export const CardTitle = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.lg};
`;
