import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

interface MenuButtonOptions {
  /** The item that takes the focus when the menu opens (the checked choice, say); the first by default. */
  initialIndex?: number;
  /**
   * What Enter and Space do on the focused item, for items that are not buttons or links
   * themselves (a menuitemradio `li`); without it, the focused button or link handles them.
   */
  onActivate?: (index: number) => void;
}

/**
 * The ARIA menu button pattern, shared by every menu of the app: the open state, the button's and
 * the list's props to spread, and `close`. ↓ or ↑ on the button opens the menu; in the menu
 * ↑/↓/Home/End move (wrapping around), Escape closes it and gives the focus back to the button,
 * Tab closes it and lets the focus move on, and a pointer pressed outside `wrapperRef` closes it.
 * The items are the list's elements with a `menuitem…` role and `tabIndex={-1}`.
 */
export function useMenuButton({ initialIndex = 0, onActivate }: MenuButtonOptions = {}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    focusItem(initialIndex);
    const onPointer = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
    // Focus moves into the menu only when it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  /** Closes the menu and gives the focus back to its button. */
  const close = () => {
    setOpen(false);
    button.current?.focus();
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
      case 'Enter':
      case ' ':
        if (!onActivate) return;
        onActivate(current);
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return {
    open,
    close,
    wrapperRef,
    buttonProps: {
      ref: button,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      onClick: () => setOpen((was) => !was),
      onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          setOpen(true);
        }
      },
    },
    listProps: { ref: list, id: menuId, role: 'menu', onKeyDown: onMenuKey },
  };
}
