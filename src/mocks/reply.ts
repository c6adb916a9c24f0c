import { delay, HttpResponse, type JsonBodyType } from 'msw';
import type { ReplyOptions } from './handlers';

/**
 * The answer helpers for the audio and library handler modules. handlers.ts imports those
 * modules to build its defaults, so they take these helpers from here rather than from it
 * (no import cycle); they answer exactly like handlers.ts's own.
 */
export const api = (path: string) => `*/api/v1${path}`;

export async function reply(options: ReplyOptions, success: () => JsonBodyType, status = 200): Promise<Response> {
  if (options.delay !== undefined) await delay(options.delay);
  if (options.status && options.status >= 400) {
    return options.body === undefined
      ? new HttpResponse(null, { status: options.status })
      : HttpResponse.json(options.body, { status: options.status });
  }
  return HttpResponse.json(success(), { status: options.status ?? status });
}
