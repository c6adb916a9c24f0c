import { ApiError, serverReason } from '../../api/errors';

/**
 * The server's own words when it sent any, else '{prefix}: {what happened}' in words a listener can
 * act on (docs/product.md#voice-assistant); never the browser's or a library's own text.
 */
export function serviceError(error: unknown, prefix: string): string {
  return serverReason(error) ?? `${prefix}: ${requestProblemOf(error)}`;
}

/** A request to our server that failed without the server saying why. */
function requestProblemOf(error: unknown): string {
  if (error instanceof ApiError && error.status === 0)
    return 'the server could not be reached. Check your connection, then try again.';
  if (error instanceof ApiError) return 'the server could not do it just now. Try again in a moment.';
  return 'something went wrong. Try again.';
}

/** The voice socket's close code for a refused sign-in (server/routes/voice-socket.ts). */
const CLOSE_UNAUTHORIZED = 4003;

/**
 * Why the conversation's connection failed or ended, for "Connection failed: …": the server's
 * reason for closing when it gave one ("Voice assistant is not running"), else what the listener
 * can do, never the socket library's own words.
 */
export function connectionProblemOf(error: unknown): string {
  const said = serverReason(error);
  if (said) return said;
  if (error instanceof ApiError) return requestProblemOf(error);
  const { code } = (error ?? {}) as { code?: unknown };
  if (code === CLOSE_UNAUTHORIZED) return 'your sign-in has expired. Sign in again, then start talking.';
  const text = error instanceof Error ? error.message : '';
  if (/timed out/i.test(text)) return 'the voice assistant did not answer in time. Try again.';
  // The server's own reason for closing, passed on by the transport after its prefix.
  const reason = /^Failed to connect to websocket: (.+)$/.exec(text)?.[1];
  if (reason && !/websocket/i.test(reason)) return reason;
  return 'the voice assistant could not be reached. Check your connection, then try again.';
}

/** For the console only: what a failure says about itself. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why the microphone could not open, in words a listener can act on: no device, permission
 * denied, or an insecure origin (browsers only give pages served over HTTPS or from localhost a
 * microphone).
 */
export function micProblemOf(error: unknown, secure: boolean): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (!secure) return 'The microphone is off: this page is not served over HTTPS, so the browser does not allow it.';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'The microphone is off: permission was denied. Allow it in the browser’s site settings, then start again.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError') {
    return name === 'NotReadableError'
      ? 'The microphone is off: another application is using it.'
      : 'The microphone is off: no microphone was found.';
  }
  return 'The microphone is off: the browser could not open it. Check its settings, then start again.';
}
