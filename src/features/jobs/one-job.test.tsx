import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../api/http';
import { jobAtStatus, jobsBackend, jobUuid } from '../../mocks/jobs';
import { usePolledJob } from './one-job';

const job = jobAtStatus('PROCESSING', { id: jobUuid(1), title: 'The Tell-Tale Heart' });
const api = jobsBackend([job]);
const server = setupServer(...Object.values(api.handlers));

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
});
afterAll(() => server.close());

describe('usePolledJob', () => {
  it('refreshes the job lists and counts (the top bar badge) as soon as the open job finishes', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => usePolledJob(job.id, 50), { wrapper });

    await waitFor(() => expect(result.current.data?.status).toBe('PROCESSING'));
    expect(invalidate).not.toHaveBeenCalled();

    api.patch(job.id, { status: 'COMPLETED', progress: 100, updated_at: '2025-02-01T10:09:00Z' });
    await waitFor(() => expect(result.current.data?.status).toBe('COMPLETED'));
    await waitFor(() => expect(invalidate).toHaveBeenCalled());
    client.clear();
  });
});
