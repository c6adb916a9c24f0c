import type { ReactNode } from 'react';
import styled from 'styled-components';
import { MenuAnchor, MenuChoice, MenuList, useMenuButton } from '../../components/ui';

export interface Choice<T> {
  value: T;
  label: string;
}

const MenuButton = styled.button`
  font: inherit;
  font-weight: 600;
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  cursor: pointer;
  font-variant-numeric: tabular-nums;
  &:hover:not(:disabled) {
    border-color: ${({ theme }) => theme.colors.textMuted};
  }
  &:disabled {
    cursor: not-allowed;
    color: ${({ theme }) => theme.colors.disabledText};
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const List = styled(MenuList)`
  z-index: 10;
  bottom: calc(100% + 4px);
  left: 0;
  min-width: 100%;
`;

const Item = styled(MenuChoice)`
  &:hover,
  &:focus {
    background: ${({ theme }) => theme.tone.info.background};
  }
`;

interface ChoiceMenuProps<T> {
  /** The button's accessible name, e.g. "Playback speed"; the menu is named the same. */
  label: string;
  /** What the button shows, e.g. "1.25×" (with an icon). */
  children: ReactNode;
  /** The shown value as text: the button is named "label: valueText", so it holds what it shows. */
  valueText?: string;
  choices: readonly Choice<T>[];
  selected: T;
  onChoose: (value: T) => void;
  disabled?: boolean;
}

/**
 * A menu button with one choice checked (the ARIA menu button pattern with menuitemradio items):
 * ↑/↓/Home/End move, Enter or Space chooses, Escape or Tab closes, the focus goes back to the
 * button.
 */
export function ChoiceMenu<T>({
  label,
  valueText,
  children,
  choices,
  selected,
  onChoose,
  disabled,
}: ChoiceMenuProps<T>) {
  const selectedIndex = Math.max(
    0,
    choices.findIndex((choice) => Object.is(choice.value, selected)),
  );
  const choose = (value: T) => {
    onChoose(value);
    close();
  };
  const { open, close, wrapperRef, buttonProps, listProps } = useMenuButton({
    initialIndex: selectedIndex,
    onActivate: (index) => {
      const choice = choices[index];
      if (choice) choose(choice.value);
    },
  });

  return (
    <MenuAnchor ref={wrapperRef}>
      <MenuButton
        {...buttonProps}
        type="button"
        aria-label={valueText ? `${label}: ${valueText}` : label}
        disabled={disabled}
      >
        {children}
      </MenuButton>
      {open && (
        <List {...listProps} aria-label={label}>
          {choices.map((choice, index) => (
            <Item
              key={String(choice.value)}
              role="menuitemradio"
              aria-checked={index === selectedIndex}
              tabIndex={-1}
              onClick={() => choose(choice.value)}
            >
              {choice.label}
            </Item>
          ))}
        </List>
      )}
    </MenuAnchor>
  );
}
