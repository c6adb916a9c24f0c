import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/http';

/** Client errors (4xx) are answers, not glitches: retry only network failures and 5xx, once. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          failureCount < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** The app's one data cache, for the page's life (stories and tests make their own). */
export const appQueryClient = createQueryClient();
