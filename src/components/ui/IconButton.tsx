import type { ButtonHTMLAttributes, ReactNode } from 'react';
import styled, { css } from 'styled-components';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-label'> {
  /** The button's accessible name (also its tooltip): "Play", "Back 10 seconds". */
  label: string;
  /** An icon (e.g. from lucide-react); it is decoration, the label names the button. */
  icon: ReactNode;
  /** The main action of a group (play/pause): filled and larger. */
  prominent?: boolean;
}

const Round = styled.button<{ $prominent: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  border-radius: ${({ theme }) => theme.radii.pill};
  cursor: pointer;
  ${({ $prominent, theme }) =>
    $prominent
      ? css`
          width: 48px;
          height: 48px;
          background: ${theme.colors.primary};
          color: ${theme.colors.primaryText};
          border: 1px solid ${theme.colors.primary};
          &:hover:not(:disabled) { background: ${theme.colors.primaryHover}; }
        `
      : css`
          width: 40px;
          height: 40px;
          background: transparent;
          color: ${theme.colors.text};
          border: 1px solid transparent;
          &:hover:not(:disabled) { background: ${theme.tone.neutral.background}; }
        `}
  &:disabled { color: ${({ theme }) => theme.colors.disabled}; cursor: not-allowed; }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
  svg { pointer-events: none; }
`;

/** A round button that shows an icon and is named by `label` (screen readers, tests, tooltip). */
export function IconButton({ label, icon, prominent = false, type = 'button', ...rest }: IconButtonProps) {
  return (
    <Round type={type} aria-label={label} title={label} $prominent={prominent} {...rest}>
      <span aria-hidden="true" style={{ display: 'contents' }}>
        {icon}
      </span>
    </Round>
  );
}
