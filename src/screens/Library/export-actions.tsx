import Download from 'lucide-react/icons/download';
import Podcast from 'lucide-react/icons/podcast';
import { useState, type ReactNode } from 'react';
import type { MenuAction } from '../../components/ui/ActionMenu';
import { DownloadDialog } from '../../features/exports';
import { PodcastFeedDialog } from '../../features/podcast-feeds';

type Open = { kind: 'download' | 'podcast'; jobId: string; title: string } | null;

/**
 * A finished book's exports as actions of its "More actions" menu (Download… and Listen in a
 * podcast app), and the dialog the chosen one opens: the screen renders `dialog` once.
 */
export function useBookExportActions(): {
  actionsFor: (book: { id: string; title: string }) => MenuAction[];
  dialog: ReactNode;
} {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  return {
    actionsFor: ({ id, title }) => [
      { label: 'Download…', icon: Download, onSelect: () => setOpen({ kind: 'download', jobId: id, title }) },
      {
        label: 'Listen in a podcast app',
        icon: Podcast,
        onSelect: () => setOpen({ kind: 'podcast', jobId: id, title }),
      },
    ],
    dialog:
      open === null ? null : open.kind === 'download' ? (
        <DownloadDialog jobId={open.jobId} title={open.title} onClose={close} />
      ) : (
        <PodcastFeedDialog jobId={open.jobId} title={open.title} onClose={close} />
      ),
  };
}
