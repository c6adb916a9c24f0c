import styled from 'styled-components';

/** An ordered list without markers whose items stack `$gap` theme spaces apart. */
export const ListStack = styled.ol<{ $gap: number }>`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${({ theme, $gap }) => theme.space($gap)};
`;
