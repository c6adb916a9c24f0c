import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listJobs } from '../../api/gen/endpoints/jobs';
import { configureApi } from '../../api/http';
import { errorBodyFixture, userFixture } from '../../mocks/fixtures';
import { handlers, jobsRunningCountHandler, loginRejectedHandler, meHandler } from '../../mocks/handlers';
import { TOKEN_KEY, USER_KEY } from '../../entities/session';
import { connectAuthToApi, initAuth, login, logout, register, resetAuth, state } from './store';

const server = setupServer(...handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // Node's fetch needs absolute URLs; the handlers match any origin.
  configureApi({ baseUrl: 'http://localhost' });
  connectAuthToApi();
});
beforeEach(() => resetAuth());
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

const storedUser = userFixture({ email: 'stored@example.com' });

function requestsTo(path: string): Request[] {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    if (new URL(request.url).pathname === path) seen.push(request.clone());
  });
  return seen;
}

describe('auth store', () => {
  it('starts loading and signed out', () => {
    expect(state).toMatchObject({ user: null, isAuthenticated: false, isLoading: true, error: null });
  });

  it('with no stored token, init ends signed out without calling the API', async () => {
    const me = requestsTo('/api/v1/auth/me');
    await initAuth();
    expect(state).toMatchObject({ user: null, isAuthenticated: false, isLoading: false });
    expect(me).toHaveLength(0);
  });

  it('restores the user from storage and confirms it with GET /auth/me', async () => {
    localStorage.setItem(TOKEN_KEY, 'stored-token');
    localStorage.setItem(USER_KEY, JSON.stringify(storedUser));
    server.use(meHandler({ user: { email: 'stored@example.com' } }));
    const me = requestsTo('/api/v1/auth/me');
    const done = initAuth();
    // Restored at once, before the server answers.
    expect(state).toMatchObject({ isAuthenticated: true, isLoading: false, user: { email: 'stored@example.com' } });
    await done;
    expect(me).toHaveLength(1);
    expect(me[0]?.headers.get('Authorization')).toBe('Bearer stored-token');
    expect(state.user?.email).toBe('stored@example.com');
  });

  it('restores a session kept in sessionStorage (not remembered)', async () => {
    sessionStorage.setItem(TOKEN_KEY, 'tab-token');
    sessionStorage.setItem(USER_KEY, JSON.stringify(storedUser));
    await initAuth();
    expect(state.isAuthenticated).toBe(true);
  });

  it('removes both stored items when the stored user cannot be parsed', async () => {
    localStorage.setItem(TOKEN_KEY, 'stored-token');
    localStorage.setItem(USER_KEY, '{not json');
    const me = requestsTo('/api/v1/auth/me');
    await initAuth();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
    expect(state).toMatchObject({ user: null, isAuthenticated: false, isLoading: false });
    expect(me).toHaveLength(0);
  });

  it('clears the user and stored data when GET /auth/me fails', async () => {
    localStorage.setItem(TOKEN_KEY, 'stale-token');
    localStorage.setItem(USER_KEY, JSON.stringify(storedUser));
    server.use(meHandler({ status: 401, body: errorBodyFixture('Token expired') }));
    await initAuth();
    expect(state).toMatchObject({ user: null, isAuthenticated: false, isLoading: false });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('keeps the stored session when the server cannot be reached (offline)', async () => {
    localStorage.setItem(TOKEN_KEY, 'stored-token');
    localStorage.setItem(USER_KEY, JSON.stringify(storedUser));
    server.use(http.get('*/api/v1/auth/me', () => HttpResponse.error()));
    await initAuth();
    expect(state).toMatchObject({ isAuthenticated: true, isLoading: false, user: { email: 'stored@example.com' } });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('stored-token');
  });

  it.each([
    [true, localStorage, sessionStorage],
    [false, sessionStorage, localStorage],
  ])('login with remember-me %s stores the token and user in the chosen storage', async (remember, used, unused) => {
    const user = await login({ email: 'reader@example.com', password: 'secret123' }, remember);
    expect(user.email).toBe('reader@example.com');
    expect(state).toMatchObject({ isAuthenticated: true, isLoading: false, error: null });
    expect(used.getItem(TOKEN_KEY)).toBe('test-access-token');
    expect(JSON.parse(used.getItem(USER_KEY) ?? 'null')).toMatchObject({ email: 'reader@example.com' });
    expect(unused.getItem(TOKEN_KEY)).toBeNull();
    expect(unused.getItem(USER_KEY)).toBeNull();
  });

  it('login sends the new token when it fetches the user', async () => {
    const me = requestsTo('/api/v1/auth/me');
    await login({ email: 'reader@example.com', password: 'secret123' });
    expect(me[0]?.headers.get('Authorization')).toBe('Bearer test-access-token');
  });

  it('a refused login keeps nothing and reports the server message', async () => {
    server.use(loginRejectedHandler('Incorrect email or password'));
    await expect(login({ email: 'reader@example.com', password: 'wrong!' }, true)).rejects.toThrow();
    expect(state).toMatchObject({ isAuthenticated: false, error: 'Incorrect email or password' });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('register creates the account, then logs in with the same email and password', async () => {
    const logins = requestsTo('/api/v1/auth/login');
    await register({ email: 'new@example.com', password: 'correct-horse-battery' });
    expect(logins).toHaveLength(1);
    expect(await logins[0]?.json()).toEqual({ email: 'new@example.com', password: 'correct-horse-battery' });
    expect(state.isAuthenticated).toBe(true);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('test-access-token');
  });

  it('a failed registration does not log in', async () => {
    server.use(
      http.post('*/api/v1/auth/register', () =>
        HttpResponse.json(errorBodyFixture('Email already registered'), { status: 409 }),
      ),
    );
    const logins = requestsTo('/api/v1/auth/login');
    await expect(register({ email: 'taken@example.com', password: 'correct-horse-battery' })).rejects.toThrow();
    expect(logins).toHaveLength(0);
    expect(state.error).toBe('Email already registered');
  });

  it('any 401 on an authenticated request clears the session', async () => {
    await login({ email: 'reader@example.com', password: 'secret123' }, true);
    server.use(jobsRunningCountHandler(0, { status: 401, body: errorBodyFixture('Token expired') }));
    await expect(listJobs({ status: 'running', page_size: 1 })).rejects.toMatchObject({ status: 401 });
    expect(state).toMatchObject({ user: null, isAuthenticated: false });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('logout clears the user and both storages', async () => {
    await login({ email: 'reader@example.com', password: 'secret123' }, false);
    logout();
    expect(state).toMatchObject({ user: null, isAuthenticated: false, isLoading: false });
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(USER_KEY)).toBeNull();
  });
});
