import { MoreHorizontal } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { IconButton } from '../../components/ui';
import { DownloadDialog } from './DownloadMenu';
import { PodcastFeedDialog } from './PodcastFeedDialog';

const Wrap = styled.div`
  position: relative;
  display: inline-block;
`;

const Menu = styled.ul`
  position: absolute;
  z-index: 50;
  right: 0;
  top: calc(100% + ${({ theme }) => theme.space(1)});
  min-width: 220px;
  margin: 0;
  padding: ${({ theme }) => theme.space(1)};
  list-style: none;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  button {
    width: 100%;
    text-align: left;
    font: inherit;
    color: ${({ theme }) => theme.colors.text};
    background: none;
    border: 0;
    border-radius: ${({ theme }) => theme.radii.sm};
    padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
    cursor: pointer;
  }
  button:hover,
  button:focus-visible {
    background: ${({ theme }) => theme.tone.info.background};
    outline: none;
  }
`;

type Open = 'menu' | 'download' | 'podcast' | null;

/**
 * A library book's "More actions" menu (role menu, arrow keys move, Escape closes): Download…
 * and Listen in a podcast app, each opening its dialog.
 */
export function BookActionsMenu({ jobId, title }: { jobId: string; title: string }) {
  const [open, setOpen] = useState<Open>(null);
  const menuId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const trigger = () => wrap.current?.querySelector<HTMLButtonElement>('[aria-haspopup]');
  const close = () => {
    setOpen(null);
    // The dialog's menu item is gone by then: the focus goes back to the menu's button.
    requestAnimationFrame(() => trigger()?.focus());
  };
  const items = () => [...(wrap.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (open !== 'menu') return;
    items()[0]?.focus();
    const outside = (event: MouseEvent) => {
      if (wrap.current && !wrap.current.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (open !== 'menu') return;
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      list[(at + step + list.length) % list.length]?.focus();
    }
  };

  return (
    <Wrap ref={wrap} onKeyDown={onKeyDown}>
      <IconButton
        label={`More actions for ${title}`}
        icon={MoreHorizontal}
        aria-haspopup="menu"
        aria-expanded={open === 'menu'}
        aria-controls={open === 'menu' ? menuId : undefined}
        onClick={() => setOpen(open === 'menu' ? null : 'menu')}
      />
      {open === 'menu' && (
        <Menu id={menuId} role="menu" aria-label={`More actions for ${title}`}>
          <li role="none">
            <button type="button" role="menuitem" onClick={() => setOpen('download')}>
              Download…
            </button>
          </li>
          <li role="none">
            <button type="button" role="menuitem" onClick={() => setOpen('podcast')}>
              Listen in a podcast app
            </button>
          </li>
        </Menu>
      )}
      {open === 'download' && <DownloadDialog jobId={jobId} title={title} onClose={close} />}
      {open === 'podcast' && <PodcastFeedDialog jobId={jobId} title={title} onClose={close} />}
    </Wrap>
  );
}
