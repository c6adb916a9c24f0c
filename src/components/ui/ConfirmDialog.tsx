import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { Alert } from './Alert';
import { Button } from './Button';
import { Backdrop } from './Dialog';

const Panel = styled.div`
  width: min(100%, 440px);
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(6)};
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadow};
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
    overflow-wrap: anywhere;
  }
  p {
    margin: 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface ConfirmDialogProps {
  /** The question, e.g. 'Delete "The Raven"?': the dialog's accessible name. */
  title: string;
  /** What happens, e.g. that it cannot be undone: the dialog's description. */
  description: ReactNode;
  confirmLabel: string;
  /** Default 'Keep it' (a "Cancel" here would be confused with cancelling a job). */
  dismissLabel?: string;
  busy?: boolean;
  busyLabel?: string;
  /** Shown inside the dialog when the action failed. */
  error?: string | null;
  onConfirm: () => void;
  onDismiss: () => void;
}

/**
 * A modal question before a destructive action: role alertdialog named by its title and
 * described by its text. The safe choice has the focus; Escape or a click outside dismisses;
 * the focus goes back where it was when the dialog closes.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  dismissLabel = 'Keep it',
  busy = false,
  busyLabel,
  error,
  onConfirm,
  onDismiss,
}: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The safe choice (the first button) has the focus.
    panel.current?.querySelector<HTMLButtonElement>('button')?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !busy) {
      event.stopPropagation();
      onDismiss();
    }
    // Keep Tab inside the dialog.
    if (event.key === 'Tab' && panel.current) {
      const buttons = [...panel.current.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
      const first = buttons[0];
      const last = buttons.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <Backdrop onMouseDown={(event) => event.target === event.currentTarget && !busy && onDismiss()}>
      <Panel
        ref={panel}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{title}</h2>
        <p id={descriptionId}>{description}</p>
        {error && <Alert>{error}</Alert>}
        <Actions>
          <Button variant="secondary" onClick={onDismiss} disabled={busy}>
            {dismissLabel}
          </Button>
          <Button variant="primary" onClick={onConfirm} disabled={busy}>
            {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
          </Button>
        </Actions>
      </Panel>
    </Backdrop>
  );
}
