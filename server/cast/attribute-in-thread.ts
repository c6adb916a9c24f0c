import { inBatchThread, moduleBeside } from '../analysis/run';
import type { Attribution } from './types';

const ATTRIBUTION = { moduleUrl: moduleBeside('attribution', import.meta.url), call: 'attributeBook' };

/**
 * ./attribution's attributeBook in a short-lived thread of its own: a long book's quotes take
 * hundreds of milliseconds to attribute, which must not hold the event loop the API answers on.
 */
export function attributeInThread(chapters: readonly { text: string }[]): Promise<Attribution> {
  return inBatchThread<Attribution>(ATTRIBUTION, chapters, { what: 'Finding who speaks each line' });
}
