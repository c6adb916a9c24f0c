import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/ui';
import { useCancelJobAction } from './actions';

/** What is about to be cancelled: its id and the title to name it by. */
export interface CancelTarget {
  id: string;
  title: string;
}

/**
 * Cancelling a running job as every screen offers it (docs/product.md#job-statuses): `ask` opens a
 * confirmation naming the job and saying a cancelled conversion cannot be resumed; "Cancel
 * conversion" cancels (the dialog closes at once, the job shows CANCELLED when the server agrees,
 * a failure is only logged), "Keep converting" leaves it running.
 */
export function useCancelJobFlow(): {
  ask: (target: CancelTarget) => void;
  dialog: ReactNode;
  isCancelling: (jobId: string) => boolean;
} {
  const { cancel, isCancelling } = useCancelJobAction();
  const [target, setTarget] = useState<CancelTarget | null>(null);

  const confirm = () => {
    if (!target) return;
    setTarget(null);
    cancel(target.id);
  };

  const dialog = target && (
    <ConfirmDialog
      title={`Cancel "${target.title}"?`}
      description={`"${target.title}" stops converting now. A cancelled conversion cannot be resumed: to get this audiobook you would have to start it again from the beginning.`}
      confirmLabel="Cancel conversion"
      dismissLabel="Keep converting"
      onConfirm={confirm}
      onDismiss={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog, isCancelling };
}
