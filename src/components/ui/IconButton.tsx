import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';
import styled from 'styled-components';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-label'> {
  /** The button's accessible name (also its tooltip): "Play", "Back 10 seconds". */
  label: string;
  /** An icon component (lucide-react, imported one by one): decoration, the label names the button. */
  icon: LucideIcon;
  /** The main action of a group (play/pause): filled and larger. */
  main?: boolean;
  /** Without a border, for dense bars (the mini-player). */
  quiet?: boolean;
}

const RoundButton = styled.button<{ $main: boolean; $quiet: boolean }>`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: ${({ $main, $quiet }) => ($main ? ($quiet ? '48px' : '56px') : '44px')};
  height: ${({ $main, $quiet }) => ($main ? ($quiet ? '48px' : '56px') : '44px')};
  padding: 0;
  border-radius: 50%;
  cursor: pointer;
  border: 1px solid
    ${({ theme, $main, $quiet }) => ($main ? theme.colors.primary : $quiet ? 'transparent' : theme.colors.border)};
  background: ${({ theme, $main, $quiet }) => ($main ? theme.colors.primary : $quiet ? 'transparent' : theme.colors.surface)};
  color: ${({ theme, $main }) => ($main ? theme.colors.primaryText : theme.colors.text)};
  &:hover:not(:disabled) {
    background: ${({ theme, $main }) => ($main ? theme.colors.primaryHover : theme.tone.info.background)};
  }
  &:disabled {
    cursor: not-allowed;
    background: ${({ theme }) => theme.colors.disabled};
    border-color: ${({ theme }) => theme.colors.disabled};
    color: ${({ theme }) => theme.colors.disabledText};
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

/** A round button showing only an icon; `label` is its accessible name (and tooltip). */
export function IconButton({
  label,
  icon: Icon,
  main = false,
  quiet = false,
  type = 'button',
  ...rest
}: IconButtonProps) {
  return (
    <RoundButton type={type} aria-label={label} title={label} $main={main} $quiet={quiet} {...rest}>
      <Icon size={main ? (quiet ? 22 : 28) : 20} aria-hidden />
    </RoundButton>
  );
}
