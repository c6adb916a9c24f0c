/**
 * Books kept on this device (docs/listening.md#keeping-a-book-on-this-device). Its client state
 * lives in state.ts: `kept` (the Valtio proxy screens render from: the kept index, downloads,
 * unsent places, newer places on offer) and `runtime` (what must not be reactive). The actions
 * are in files named for what they do: actions.ts (keeping and removing), queue.ts (places made
 * offline), readAlong.ts, watch.ts; the bytes are in Cache Storage (cache.ts), the index and the
 * queue in the browser's storage (persist.ts). Every action is handed the app's data cache.
 */
export { KeepOnDevice } from './KeepOnDevice';
export { KeptBadge } from './KeptBadge';
export { PlaceOfferNotice } from './PlaceOfferNotice';
export { useKeptBook, useKeptBooks, useKeptReadAlong, useWatchKeptBooks } from './hooks';
export { cancelKeeping, dismissKeepFailure, keepBook, removeBook } from './actions';
export { deviceKeeping } from './queue';
export { kept as keptState, resetKept } from './state';
