import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from 'react';
import styled, { css } from 'styled-components';
import { Link } from 'wouter';

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
          &:hover:not(:disabled) {
            background: ${theme.colors.primaryHover};
          }
        `;
      case 'secondary':
        return css`
          background: ${theme.colors.surface};
          color: ${theme.colors.text};
          border: 1px solid ${theme.colors.border};
          &:hover:not(:disabled) {
            border-color: ${theme.colors.textMuted};
          }
          /* A toggle that is on (e.g. the active view) looks chosen, not only to screen readers. */
          &[aria-pressed='true'] {
            background: ${theme.colors.primary};
            border-color: ${theme.colors.primary};
            color: ${theme.colors.primaryText};
          }
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
          &:hover:not(:disabled) {
            color: ${theme.colors.primaryHover};
          }
        `;
    }
  }}
  &:disabled {
    cursor: not-allowed;
    background: ${({ theme, $variant }) => ($variant === 'link' ? 'none' : theme.colors.disabled)};
    border-color: ${({ theme }) => theme.colors.disabled};
    color: ${({ theme }) => theme.colors.disabledText};
  }
`;

export function Button({ variant = 'primary', fullWidth = false, type = 'button', ...rest }: ButtonProps) {
  return <StyledButton type={type} $variant={variant} $fullWidth={fullWidth} {...rest} />;
}

export interface ButtonLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  href: string;
  variant?: Exclude<ButtonVariant, 'link'>;
}

// An in-app navigation that looks like a button: a real link (role link, opens in a new tab),
// so "Play", "View" and "Upload Story" announce where they go.
const StyledButtonLink = styled(StyledButton)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  text-decoration: none;
  &:hover {
    color: ${({ theme, $variant }) => ($variant === 'primary' ? theme.colors.primaryText : theme.colors.text)};
  }
`;

export function ButtonLink({ variant = 'secondary', href, ...rest }: ButtonLinkProps) {
  return <StyledButtonLink as={Link} href={href} $variant={variant} $fullWidth={false} {...rest} />;
}
