import type { ButtonHTMLAttributes } from 'react';
import styled, { css } from 'styled-components';

export type ButtonVariant = 'primary' | 'secondary' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  fullWidth?: boolean;
}

const StyledButton = styled.button<{ $variant: ButtonVariant; $fullWidth: boolean }>`
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  min-height: 40px;
  width: ${({ $fullWidth }) => ($fullWidth ? '100%' : 'auto')};
  ${({ $variant, theme }) => {
    switch ($variant) {
      case 'primary':
        return css`
          background: ${theme.colors.primary};
          color: ${theme.colors.primaryText};
          border: 1px solid ${theme.colors.primary};
          &:hover:not(:disabled) { background: ${theme.colors.primaryHover}; }
        `;
      case 'secondary':
        return css`
          background: ${theme.colors.surface};
          color: ${theme.colors.text};
          border: 1px solid ${theme.colors.border};
          &:hover:not(:disabled) { border-color: ${theme.colors.textMuted}; }
        `;
      case 'link':
        return css`
          background: none;
          border: none;
          padding: 0;
          min-height: 0;
          font-weight: 400;
          color: ${theme.colors.primary};
          text-decoration: underline;
          &:hover:not(:disabled) { color: ${theme.colors.primaryHover}; }
        `;
    }
  }}
  &:disabled {
    cursor: not-allowed;
    background: ${({ theme, $variant }) => ($variant === 'link' ? 'none' : theme.colors.disabled)};
    border-color: ${({ theme }) => theme.colors.disabled};
    color: ${({ theme, $variant }) => ($variant === 'link' ? theme.colors.disabled : '#ffffff')};
  }
`;

export function Button({ variant = 'primary', fullWidth = false, type = 'button', ...rest }: ButtonProps) {
  return <StyledButton type={type} $variant={variant} $fullWidth={fullWidth} {...rest} />;
}
