import Ellipsis from 'lucide-react/icons/ellipsis';
import type { LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';

/**
 * One action of a menu: a command (`onSelect`) or a link (`href`; `download` makes it a file the
 * browser saves). `danger` marks a destructive one (shown last, in the error colour); it should ask
 * for a confirmation itself (a ConfirmDialog).
 */
export interface MenuAction {
  label: string;
  icon?: LucideIcon;
  onSelect?: () => void;
  href?: string;
  /** With `href`: the browser downloads the file (the value is the suggested file name, or true). */
  download?: string | true;
  danger?: boolean;
  disabled?: boolean;
}

const Wrapper = styled.div`
  position: relative;
  display: inline-block;
`;

const Trigger = styled.button`
  display: inline-grid;
  place-items: center;
  width: 40px;
  height: 40px;
  padding: 0;
  border-radius: 50%;
  border: 1px solid transparent;
  background: transparent;
  color: ${({ theme }) => theme.colors.textMuted};
  cursor: pointer;
  &:hover,
  &[aria-expanded='true'] {
    background: ${({ theme }) => theme.colors.raised};
    color: ${({ theme }) => theme.colors.text};
  }
`;

const List = styled.ul`
  position: absolute;
  z-index: 15;
  top: calc(100% + 4px);
  right: 0;
  min-width: 12rem;
  margin: 0;
  padding: ${({ theme }) => theme.space(1)} 0;
  list-style: none;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  white-space: nowrap;
`;

const itemStyle = `
  display: flex;
  align-items: center;
  gap: 8px;
  width: 100%;
  font: inherit;
  text-align: left;
  text-decoration: none;
  border: none;
  background: none;
  cursor: pointer;
`;

const Item = styled.li<{ $danger: boolean }>`
  > * {
    ${itemStyle}
    padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
    color: ${({ theme, $danger }) => ($danger ? theme.colors.danger : theme.colors.text)};
  }
  > *:hover,
  > *:focus {
    background: ${({ theme }) => theme.colors.raised};
    outline: none;
  }
  > *:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -2px;
  }
  > [aria-disabled='true'] {
    color: ${({ theme }) => theme.colors.disabledText};
    cursor: not-allowed;
  }
`;

/**
 * A "More actions" button (an ellipsis named `label`, e.g. "More actions for The Raven") opening a
 * menu of `actions` (the ARIA menu button pattern): ↑/↓/Home/End move, Enter or Space runs one,
 * Escape or Tab closes, and the focus goes back to the button. Any screen passes the actions it
 * has; destructive ones come last.
 */
export function ActionMenu({ label, actions }: { label: string; actions: readonly MenuAction[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const ordered = [...actions.filter((a) => !a.danger), ...actions.filter((a) => a.danger)];

  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    focusItem(0);
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
    // Focus moves into the menu only when it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const run = (action: MenuAction) => {
    if (action.disabled) return;
    close();
    action.onSelect?.();
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
        close();
        break;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <Wrapper ref={wrapper}>
      <Trigger
        ref={button}
        type="button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Ellipsis size={20} aria-hidden />
      </Trigger>
      {open && (
        <List ref={list} id={menuId} role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {ordered.map((action) => {
            const Icon = action.icon;
            const content = (
              <>
                {Icon && <Icon size={16} aria-hidden />}
                {action.label}
              </>
            );
            return (
              <Item key={action.label} role="none" $danger={Boolean(action.danger)}>
                {action.href && !action.disabled ? (
                  action.download ? (
                    <a
                      role="menuitem"
                      tabIndex={-1}
                      href={action.href}
                      download={action.download === true ? '' : action.download}
                      onClick={close}
                    >
                      {content}
                    </a>
                  ) : (
                    <Link role="menuitem" tabIndex={-1} href={action.href} onClick={close}>
                      {content}
                    </Link>
                  )
                ) : (
                  <button
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    aria-disabled={action.disabled || undefined}
                    onClick={() => run(action)}
                  >
                    {content}
                  </button>
                )}
              </Item>
            );
          })}
        </List>
      )}
    </Wrapper>
  );
}
