import Download from 'lucide-react/icons/download';
import Trash2 from 'lucide-react/icons/trash-2';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui';
import type { MenuAction } from '../../components/ui/ActionMenu';
import { cancelKeeping, keepBook, KeptBadge, removeBook, useKeptBooks } from '../../features/kept-books';

/**
 * Keeping books from the library: each finished book's "Download to this device" (or "Remove
 * from this device", or cancelling a download under way) for its "More actions" menu, the mark a
 * kept book carries ("On this device", or how far its download is).
 */
export function useKeepActions(): {
  actionFor: (book: { id: string; converting: string | null }, online: boolean) => MenuAction[];
  badgeFor: (id: string) => ReactNode;
} {
  const client = useQueryClient();
  const { books, downloads } = useKeptBooks();
  return {
    actionFor: ({ id, converting }, online) => {
      if (id in books) return [{ label: 'Remove from this device', icon: Trash2, onSelect: () => void removeBook(id) }];
      const download = downloads[id];
      if (download?.status === 'downloading') {
        return [{ label: `Cancel download (${download.percent} %)`, onSelect: () => cancelKeeping(id) }];
      }
      // Only a finished book is kept, and only with a connection.
      if (converting || !online) return [];
      return [{ label: 'Download to this device', icon: Download, onSelect: () => void keepBook(client, id) }];
    },
    badgeFor: (id) => {
      if (id in books) return <KeptBadge />;
      const download = downloads[id];
      if (download?.status === 'downloading') return <Badge>{`Downloading… ${download.percent} %`}</Badge>;
      return null;
    },
  };
}
