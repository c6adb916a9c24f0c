import { ChevronDown, Download } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button, Dialog } from '../../components/ui';
import { DownloadOptions } from './DownloadOptions';

const Wrap = styled.div`
  position: relative;
  display: inline-block;
`;

const Label = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
`;

const Popover = styled.div`
  position: absolute;
  z-index: 50;
  top: calc(100% + ${({ theme }) => theme.space(2)});
  left: 0;
  width: min(90vw, 380px);
  padding: ${({ theme }) => theme.space(4)};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadowRaised};
`;

/**
 * The book page's Download button: opens the four downloads (M4B, MP3, ZIP, EPUB with
 * read-along) beside it. Escape or a click elsewhere closes them; the focus returns to the button.
 */
export function DownloadMenu({ jobId, title }: { jobId: string; title: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrap = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (wrap.current && !wrap.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  return (
    <Wrap
      ref={wrap}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
          wrap.current?.querySelector('button')?.focus();
        }
      }}
    >
      <Button
        variant="secondary"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <Label>
          <Download aria-hidden="true" size={18} />
          Download
          <ChevronDown aria-hidden="true" size={16} />
        </Label>
      </Button>
      {open && (
        <Popover id={panelId} role="group" aria-label={`Download ${title}`}>
          <DownloadOptions jobId={jobId} />
        </Popover>
      )}
    </Wrap>
  );
}

/** The same downloads in a dialog, for a menu item (the library's "More actions"). */
export function DownloadDialog({ jobId, title, onClose }: { jobId: string; title: string; onClose: () => void }) {
  return (
    <Dialog title="Download" subtitle={title} onClose={onClose}>
      <DownloadOptions jobId={jobId} />
    </Dialog>
  );
}
