import Undo2 from 'lucide-react/icons/undo-2';
import { useSnapshot } from 'valtio';
import { Button } from '../../components/ui';
import { formatClock } from '../../entities/time';
import { returnToPrevious } from './controls';
import { state } from './store';

/**
 * "Back to 2:46": after a jump the listener did not drag to (a chapter, "Play from here", the
 * assistant's "continue"), the place before it, for a while (controls.ts, RETURN_OFFER_MS).
 */
export function ReturnButton() {
  const { returnTo } = useSnapshot(state);
  if (returnTo === null) return null;
  const label = `Back to ${formatClock(returnTo)}`;
  return (
    <Button variant="secondary" onClick={returnToPrevious} aria-label={label}>
      <Undo2 aria-hidden="true" size={16} /> {label}
    </Button>
  );
}
