import styled from 'styled-components';

/** One form field: its label, its control and the messages under it, stacked. */
export const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(1)};
`;

export const FieldLabel = styled.label`
  font-weight: 600;
`;

/** A hint or, with `$error`, a validation message under a field. */
export const FieldMessage = styled.p<{ $error?: boolean }>`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme, $error }) => ($error ? theme.colors.danger : theme.colors.textMuted)};
`;
