import { proxy } from 'valtio';

/**
 * The cast's client state (docs/product.md#full-cast): what the server says about a book's cast
 * (its characters, who speaks each quote) lives in the React Query cache; this keeps only what
 * the listener's corrections set going. The code that changes it is in actions.ts.
 */
export interface CastState {
  /**
   * Per book id: the chapters (numbers from 1) being read again after the listener gave a quote
   * another speaker, and when the server answered (ms since the epoch): the book's status is
   * trusted only once it was read after that.
   */
  reconverting: Record<string, { chapters: number[]; since: number }>;
}

export const state = proxy<CastState>({ reconverting: {} });
