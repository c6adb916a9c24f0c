import { X } from 'lucide-react';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { IconButton } from './IconButton';

/** The dimmed page behind a modal dialog, centring it. */
export const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 100;
  display: grid;
  place-items: center;
  padding: ${({ theme }) => theme.space(4)};
  background: ${({ theme }) => theme.backdrop};
`;

const Panel = styled.div`
  width: min(100%, 480px);
  max-height: calc(100vh - ${({ theme }) => theme.space(8)});
  overflow: auto;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(6)};
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadowRaised};
`;

const Header = styled.div`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
    overflow-wrap: anywhere;
  }
  p {
    margin: ${({ theme }) => theme.space(1)} 0 0;
    color: ${({ theme }) => theme.colors.textMuted};
    overflow-wrap: anywhere;
  }
`;

export interface DialogProps {
  /** The dialog's accessible name, its heading. */
  title: string;
  /** A line under the title (the book's name), its description. */
  subtitle?: string;
  onClose: () => void;
  children: ReactNode;
}

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog (role dialog, named by its title): the focus moves into it and stays there,
 * Escape, the close button or a click outside closes it, and the focus goes back where it was.
 */
export function Dialog({ title, subtitle, onClose, children }: DialogProps) {
  const titleId = useId();
  const subtitleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
    if (event.key === 'Tab' && panel.current) {
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = items[0];
      const last = items.at(-1);
      if (event.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <Backdrop onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <Panel
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        {...(subtitle !== undefined && { 'aria-describedby': subtitleId })}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <Header>
          <div>
            <h2 id={titleId}>{title}</h2>
            {subtitle !== undefined && <p id={subtitleId}>{subtitle}</p>}
          </div>
          <IconButton label="Close" icon={X} quiet onClick={onClose} />
        </Header>
        {children}
      </Panel>
    </Backdrop>
  );
}
