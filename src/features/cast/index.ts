/**
 * The full cast in the book page (docs/product.md#full-cast): who speaks each quote of the
 * read-along and the listener's corrections; BookCast gives the player's read-along its speakers
 * (the upload page's cast preview is src/screens/Upload's). Its client state lives in state.ts (one Valtio proxy), changed by
 * actions.ts; the server's answers live in the React Query cache (hooks.ts).
 */
export { BookCast } from './BookCast';
export { resetCast } from './actions';
