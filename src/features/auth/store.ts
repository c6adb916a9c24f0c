import { proxy } from 'valtio';
import { getCurrentUser, login as postLogin, register as postRegister } from '../../api/gen/endpoints/auth';
import { User, type UserOutput } from '../../api/gen/model';
import { loadedSchema, resolveSchema } from '../../api/lazySchema';
import { errorMessage, isRetryable } from '../../api/errors';
import { configureApi } from '../../api/http';
import { clearSession, readStoredUser, readToken, storeToken, storeUser } from '../../entities/session';

/** The auth state (docs/product.md#session). isLoading starts true until init has run. */
export interface AuthState {
  user: UserOutput | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  error: string | null;
}

const initialState: AuthState = { user: null, isAuthenticated: false, isLoading: true, error: null };

export const state = proxy<AuthState>(structuredClone(initialState));

/** Back to the initial state (every story and test starts clean), optionally with a patch. */
export function resetAuth(patch: Partial<AuthState> = {}): void {
  Object.assign(state, structuredClone(initialState), patch);
}

function signedIn(user: UserOutput): void {
  Object.assign(state, { user, isAuthenticated: true, isLoading: false, error: null });
}

function signedOut(error: string | null = null): void {
  clearSession();
  Object.assign(state, { user: null, isAuthenticated: false, isLoading: false, error });
}

function parseStoredUser(schema: typeof User, json: string): UserOutput | null {
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Restores the session from storage at once (so a returning user sees the app without waiting),
 * then confirms it with GET /auth/me; a failure there signs the user out.
 */
export async function initAuth(): Promise<void> {
  const token = readToken();
  if (!token) {
    signedOut();
    return;
  }
  const storedJson = readStoredUser();
  if (storedJson !== null) {
    // At once when the schema is at hand; on a first visit, once its chunk has loaded.
    const schema = loadedSchema(User) ?? (await resolveSchema(User));
    const stored = parseStoredUser(schema, storedJson);
    if (!stored) {
      signedOut();
      return;
    }
    signedIn(stored);
  }
  await fetchCurrentUser();
}

/**
 * GET /auth/me: success keeps the user signed in (and refreshes the stored copy). A server that
 * cannot be reached (offline, or down) keeps a session restored from storage: only the server's
 * answer signs the user out.
 */
export async function fetchCurrentUser(): Promise<UserOutput | null> {
  try {
    const user = (await resolveSchema(User)).parse(await getCurrentUser());
    storeUser(user);
    signedIn(user);
    return user;
  } catch (error) {
    if (state.user && isRetryable(error)) return state.user;
    signedOut(errorMessage(error, 'Failed to get user'));
    return null;
  }
}

export interface Credentials {
  email: string;
  password: string;
}

/** POST /auth/login, store the token where `remember` says, then fetch and store the user. */
export async function login({ email, password }: Credentials, remember = false): Promise<UserOutput> {
  state.error = null;
  try {
    const { access_token } = await postLogin({ email, password });
    storeToken(access_token, remember);
    const user = (await resolveSchema(User)).parse(await getCurrentUser());
    storeUser(user);
    signedIn(user);
    return user;
  } catch (error) {
    signedOut(errorMessage(error, 'Login failed'));
    throw error;
  }
}

/**
 * POST /auth/register, then sign in with the same email and password. The register screen has
 * no remember-me choice, so a new account's session is kept like a remembered one (localStorage).
 */
export async function register(credentials: Credentials): Promise<UserOutput> {
  state.error = null;
  try {
    await postRegister(credentials);
  } catch (error) {
    state.error = errorMessage(error, 'Registration failed');
    throw error;
  }
  return login(credentials, true);
}

/** Sign out: forget the user and the stored session. The router then shows /login. */
export function logout(): void {
  signedOut();
}

/** Any 401 on an authenticated request: the stored session is no longer valid. */
export function handleUnauthorized(): void {
  signedOut();
}

/** Wire the API client to this store: it sends the stored token and reports 401s here. */
export function connectAuthToApi(): void {
  configureApi({ getToken: readToken, onUnauthorized: handleUnauthorized });
}
