import { setupWorker } from 'msw/browser';
import { handlers } from './handlers';

/** The dev worker: `VITE_MOCK_API=true npm run build`/dev serves the SPA against these handlers. */
export const worker = setupWorker(...handlers);
