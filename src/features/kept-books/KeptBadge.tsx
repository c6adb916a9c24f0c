import { Badge } from '../../components/ui';

/** The library's mark on a book kept on this device. */
export function KeptBadge() {
  return <Badge tone="info">On this device</Badge>;
}
