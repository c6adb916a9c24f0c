import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../api/http';
import { environmentErrorHandler, environmentHandler } from '../../mocks/handlers';
import { fallbackEnvironment, PRODUCTION_HOST, useEnvironment, type EnvironmentOptions } from './environment';

const server = setupServer(
  environmentHandler({ environment: 'production', features: { signup_enabled: false, debug_mode: false } }),
);
let requests = 0;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', () => {
    requests += 1;
  });
  configureApi({ baseUrl: 'http://localhost' });
});
afterEach(() => {
  server.resetHandlers();
  requests = 0;
});
afterAll(() => server.close());

/** Renders useEnvironment in a fresh cache (as a page load would); `client` shares one between renders. */
function render(options: EnvironmentOptions = {}, client = new QueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { ...renderHook(() => useEnvironment(options), { wrapper }), client };
}

describe('useEnvironment', () => {
  it('is null until the server answers, then its answer, asked once for every screen', async () => {
    const first = render();
    expect(first.result.current).toBeNull();
    await waitFor(() => expect(first.result.current).not.toBeNull());
    expect(first.result.current).toEqual({
      environment: 'production',
      features: { signup_enabled: false, debug_mode: false, demo_mode: false },
    });
    const second = render({}, first.client);
    expect(second.result.current?.environment).toBe('production');
    expect(requests).toBe(1);
  });

  it('on failure away from the production host: dev, signup and debug on, demo off; the error is logged', async () => {
    server.use(environmentErrorHandler(500));
    const log = vi.fn();
    const { result } = render({ host: 'localhost', log });
    await waitFor(() => expect(result.current).not.toBeNull());
    expect(result.current).toEqual({
      environment: 'dev',
      features: { signup_enabled: true, debug_mode: true, demo_mode: false },
    });
    expect(log).toHaveBeenCalledOnce();
  });

  it('on failure on the production host: production, signup and debug off, demo off', async () => {
    server.use(environmentErrorHandler(503));
    const { result } = render({ host: PRODUCTION_HOST, log: () => {} });
    await waitFor(() => expect(result.current).not.toBeNull());
    expect(result.current).toEqual({
      environment: 'production',
      features: { signup_enabled: false, debug_mode: false, demo_mode: false },
    });
  });

  it('a fallback is not kept: the next screen asks the server again', async () => {
    server.use(environmentErrorHandler(500));
    const failed = render({ host: 'localhost', log: () => {} });
    await waitFor(() => expect(failed.result.current?.environment).toBe('dev'));
    failed.unmount();
    server.resetHandlers();
    const next = render({ host: 'localhost', log: () => {} }, failed.client);
    await waitFor(() => expect(next.result.current?.environment).toBe('production'));
    expect(requests).toBe(2);
  });

  it('fallbackEnvironment depends only on the host', () => {
    expect(fallbackEnvironment('staging.lectio.app').environment).toBe('dev');
    expect(fallbackEnvironment(PRODUCTION_HOST).features.signup_enabled).toBe(false);
  });
});
