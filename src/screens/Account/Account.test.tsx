import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { ThemeProvider } from 'styled-components';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureApi } from '../../api/http';
import { preferencesHandler } from '../../mocks/account';
import { meHandler } from '../../mocks/handlers';
import { voicesHandler } from '../../mocks/voices';
import { themes } from '../../styles/theme';
import { Account } from './Account';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const server = setupServer(
  meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
  preferencesHandler(),
  voicesHandler(),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => 'token', onUnauthorized: () => {} });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function renderAccount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ThemeProvider theme={themes.light}>
        <Account />
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

describe('the account page', () => {
  it('shows the storage the server reports, in words and as a meter with its name', async () => {
    renderAccount();
    expect(await screen.findByText('12 MB of 2 GB used')).toBeTruthy();
    const meter = screen.getByRole('meter', { name: 'Storage used' });
    expect(meter.getAttribute('aria-valuenow')).toBe('1');
    expect(meter.getAttribute('aria-valuetext')).toBe('12 MB of 2 GB used (1%)');
    expect(screen.queryByText(/nearly full|is full/)).toBeNull();
  });

  it('hints how to make room when the storage is nearly full', async () => {
    server.use(meHandler({ storage: { used_bytes: 460 * MB, quota_bytes: 500 * MB } }));
    renderAccount();
    expect(await screen.findByText('460 MB of 500 MB used')).toBeTruthy();
    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(within(storage).getByRole('status').textContent).toMatch(/^Your storage is nearly full\./);
  });

  it('says why when the server cannot answer', async () => {
    server.use(meHandler({ status: 500 }));
    renderAccount();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your account could not be loaded. Check your connection and reload the page.',
    );
  });
});
