import { QueryClient } from '@tanstack/react-query';
import { isRetryable } from '../api/errors';

/** Client errors (4xx) are answers, not glitches: retry once only what the error model calls retryable. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && isRetryable(error),
        refetchOnWindowFocus: false,
        // The first try always goes out, offline too: the service worker answers it for a book
        // kept on this device. Only the retries wait for the connection.
        networkMode: 'offlineFirst',
      },
    },
  });
}

/** The app's one data cache, for the page's life (stories and tests make their own). */
export const appQueryClient = createQueryClient();
