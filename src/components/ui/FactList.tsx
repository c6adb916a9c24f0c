import styled from 'styled-components';

/** Short facts as a `dl` in a wrapping row ("Started 10:02 · Duration 3:14"): each `div` a `dt` and its `dd`. */
export const FactList = styled.dl`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => `${theme.space(1)} ${theme.space(6)}`};
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  div {
    display: flex;
    gap: ${({ theme }) => theme.space(1)};
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
  }
`;
