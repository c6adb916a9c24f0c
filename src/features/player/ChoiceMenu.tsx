import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';

export interface Choice<T> {
  value: T;
  label: string;
}

const Wrapper = styled.div`
  position: relative;
  display: inline-block;
`;

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

const List = styled.ul`
  position: absolute;
  z-index: 10;
  bottom: calc(100% + 4px);
  left: 0;
  min-width: 100%;
  margin: 0;
  padding: ${({ theme }) => theme.space(1)} 0;
  list-style: none;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  white-space: nowrap;
`;

const Item = styled.li`
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  cursor: pointer;
  color: ${({ theme }) => theme.colors.text};
  &[aria-checked='true'] {
    font-weight: 700;
  }
  &[aria-checked='true']::before {
    content: '✓ ';
  }
  &:hover,
  &:focus {
    background: ${({ theme }) => theme.tone.info.background};
    outline: none;
  }
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -2px;
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
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const selectedIndex = Math.max(
    0,
    choices.findIndex((choice) => Object.is(choice.value, selected)),
  );

  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    focusItem(selectedIndex);
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
    // Focus moves into the menu only when it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const choose = (value: T) => {
    onChoose(value);
    close(true);
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = items().indexOf(document.activeElement as HTMLElement);
    switch (event.key) {
      case 'ArrowDown':
        focusItem(current + 1);
        break;
      case 'ArrowUp':
        focusItem(current - 1);
        break;
      case 'Home':
        focusItem(0);
        break;
      case 'End':
        focusItem(-1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        setOpen(false);
        return;
      case 'Enter':
      case ' ': {
        const choice = choices[current];
        if (choice) choose(choice.value);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <Wrapper ref={wrapper}>
      <MenuButton
        ref={button}
        type="button"
        aria-label={valueText ? `${label}: ${valueText}` : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {children}
      </MenuButton>
      {open && (
        <List ref={list} id={menuId} role="menu" aria-label={label} onKeyDown={onMenuKey}>
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
    </Wrapper>
  );
}
