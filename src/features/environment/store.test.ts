import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../api/http';
import { environmentErrorHandler, environmentHandler } from '../../mocks/handlers';
import { fallbackEnvironment, loadEnvironment, PRODUCTION_HOST, resetEnvironment, state } from './store';

const server = setupServer(environmentHandler({ environment: 'production', features: { signup_enabled: false, debug_mode: false } }));

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost' });
});
beforeEach(() => resetEnvironment());
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function countRequests(): { count: number } {
  const counter = { count: 0 };
  server.events.on('request:start', () => {
    counter.count += 1;
  });
  return counter;
}

describe('environment', () => {
  it('uses the server answer and caches it after the first success', async () => {
    const requests = countRequests();
    const first = await loadEnvironment();
    const second = await loadEnvironment();
    expect(first).toEqual({
      environment: 'production',
      features: { signup_enabled: false, debug_mode: false, demo_mode: false },
    });
    expect(second).toEqual(first);
    expect(state.source).toBe('server');
    expect(requests.count).toBe(1);
  });

  it('on failure away from the production host: dev, signup and debug on, demo off; the error is logged', async () => {
    server.use(environmentErrorHandler(500));
    const log = vi.fn();
    const info = await loadEnvironment({ host: 'localhost', log });
    expect(info).toEqual({ environment: 'dev', features: { signup_enabled: true, debug_mode: true, demo_mode: false } });
    expect(state.source).toBe('fallback');
    expect(log).toHaveBeenCalledOnce();
  });

  it('on failure on the production host: production, signup and debug off, demo off', async () => {
    server.use(environmentErrorHandler(503));
    const info = await loadEnvironment({ host: PRODUCTION_HOST, log: () => {} });
    expect(info).toEqual({
      environment: 'production',
      features: { signup_enabled: false, debug_mode: false, demo_mode: false },
    });
  });

  it('a fallback is not cached: the next load asks the server again', async () => {
    server.use(environmentErrorHandler(500));
    await loadEnvironment({ host: 'localhost', log: () => {} });
    server.resetHandlers();
    const info = await loadEnvironment();
    expect(info.environment).toBe('production');
    expect(state.source).toBe('server');
  });

  it('fallbackEnvironment depends only on the host', () => {
    expect(fallbackEnvironment('staging.lectio.app').environment).toBe('dev');
    expect(fallbackEnvironment(PRODUCTION_HOST).features.signup_enabled).toBe(false);
  });
});
