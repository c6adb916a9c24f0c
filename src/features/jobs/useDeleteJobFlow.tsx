import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/ui';
import { useDeleteJobAction } from './actions';

/** What is about to be deleted: its id, the title to name it by, and whether it is a finished audiobook. */
export interface DeleteTarget {
  id: string;
  title: string;
  audiobook: boolean;
}

const AUDIOBOOK_GOES =
  'The audiobook, its chapters, its audio and your listening progress are removed for good. This cannot be undone.';
const JOB_GOES = 'The job and everything it made so far are removed for good. This cannot be undone.';

/**
 * Deleting a finished job or book as every list offers it: `ask` opens the confirmation, the
 * dialog shows the server's reason when it fails, and `deleted` names the last one removed (for
 * the list's success message).
 */
export function useDeleteJobFlow(): { ask: (target: DeleteTarget) => void; dialog: ReactNode; deleted: string | null } {
  const deletion = useDeleteJobAction();
  const [target, setTarget] = useState<DeleteTarget | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);

  const ask = (next: DeleteTarget) => {
    deletion.reset();
    setTarget(next);
  };
  const confirm = () => {
    if (!target) return;
    const { id, title } = target;
    deletion.remove(id).then(
      () => {
        setTarget(null);
        setDeleted(title);
      },
      () => undefined, // the dialog shows the reason
    );
  };

  const dialog = target && (
    <ConfirmDialog
      title={`Delete "${target.title}"?`}
      description={target.audiobook ? AUDIOBOOK_GOES : JOB_GOES}
      confirmLabel="Delete"
      busy={deletion.isDeleting}
      busyLabel="Deleting..."
      error={deletion.error}
      onConfirm={confirm}
      onDismiss={() => setTarget(null)}
    />
  );
  return { ask, dialog, deleted };
}
