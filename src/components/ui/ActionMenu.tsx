import Ellipsis from 'lucide-react/icons/ellipsis';
import type { LucideIcon } from 'lucide-react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { MenuAnchor, MenuList } from './MenuList';
import { useMenuButton } from './useMenuButton';

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

const List = styled(MenuList)`
  z-index: 15;
  top: calc(100% + 4px);
  right: 0;
  min-width: 12rem;
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

/** One action's item: a link, a download, or a button running the command. */
function ActionItem({ action, close }: { action: MenuAction; close: () => void }) {
  const Icon = action.icon;
  const content = (
    <>
      {Icon && <Icon size={16} aria-hidden />}
      {action.label}
    </>
  );
  let item;
  if (action.href && !action.disabled) {
    item = action.download ? (
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
    );
  } else {
    item = (
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        aria-disabled={action.disabled || undefined}
        onClick={() => {
          if (action.disabled) return;
          close();
          action.onSelect?.();
        }}
      >
        {content}
      </button>
    );
  }
  return (
    <Item role="none" $danger={Boolean(action.danger)}>
      {item}
    </Item>
  );
}

/**
 * A "More actions" button (an ellipsis named `label`, e.g. "More actions for The Raven") opening a
 * menu of `actions` (the ARIA menu button pattern, `useMenuButton`): ↑/↓/Home/End move, Enter or
 * Space runs one, Escape or Tab closes, and the focus goes back to the button. Any screen passes
 * the actions it has; destructive ones come last.
 */
export function ActionMenu({ label, actions }: { label: string; actions: readonly MenuAction[] }) {
  const { open, close, wrapperRef, buttonProps, listProps } = useMenuButton();
  const ordered = [...actions.filter((a) => !a.danger), ...actions.filter((a) => a.danger)];

  return (
    <MenuAnchor ref={wrapperRef}>
      <Trigger {...buttonProps} type="button" aria-label={label} title={label}>
        <Ellipsis size={20} aria-hidden />
      </Trigger>
      {open && (
        <List {...listProps} aria-label={label}>
          {ordered.map((action) => (
            <ActionItem key={action.label} action={action} close={close} />
          ))}
        </List>
      )}
    </MenuAnchor>
  );
}
