import { serverReason } from '../../api/errors';

/** The server's own words when it sent any, else '{prefix}: {message}' (docs/product.md#voice-assistant). */
export function serviceError(error: unknown, prefix: string): string {
  return serverReason(error) ?? `${prefix}: ${messageOf(error)}`;
}

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
  return `The microphone is off: ${messageOf(error)}.`;
}
