/**
 * Where the signed-in session lives in the browser (docs/product.md#session: names `access_token` and
 * `user`). "Remember me" keeps it in persistent storage (localStorage); otherwise it goes to
 * per-tab storage (sessionStorage) and ends with the browser. Reads look in both.
 */
export const TOKEN_KEY = 'access_token';
export const USER_KEY = 'user';

export interface SessionStorages {
  persistent: Storage;
  temporary: Storage;
}

/** The storages swapped in (null: the browser's own). */
const swapped: { storages: SessionStorages | null } = { storages: null };

/** Swap the storages (tests, non-browser hosts); `null` returns to the browser's own. */
export function configureSessionStorage(storages: SessionStorages | null): void {
  swapped.storages = storages;
}

function storages(): SessionStorages {
  return swapped.storages ?? { persistent: window.localStorage, temporary: window.sessionStorage };
}

/** The storage holding the token, persistent first. */
function activeStorage(): Storage | null {
  const { persistent, temporary } = storages();
  if (persistent.getItem(TOKEN_KEY)) return persistent;
  if (temporary.getItem(TOKEN_KEY)) return temporary;
  return null;
}

export function readToken(): string | null {
  return activeStorage()?.getItem(TOKEN_KEY) ?? null;
}

/** The stored user as raw JSON text, from the same storage as the token. */
export function readStoredUser(): string | null {
  return activeStorage()?.getItem(USER_KEY) ?? null;
}

export function storeToken(token: string, remember: boolean): void {
  clearSession();
  const { persistent, temporary } = storages();
  (remember ? persistent : temporary).setItem(TOKEN_KEY, token);
}

/** A new token for the same session (after a password change), kept where the old one was. */
export function replaceToken(token: string): void {
  activeStorage()?.setItem(TOKEN_KEY, token);
}

export function storeUser(user: unknown): void {
  activeStorage()?.setItem(USER_KEY, JSON.stringify(user));
}

export function clearSession(): void {
  const { persistent, temporary } = storages();
  for (const storage of [persistent, temporary]) {
    storage.removeItem(TOKEN_KEY);
    storage.removeItem(USER_KEY);
  }
}
