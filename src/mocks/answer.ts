import { delay, HttpResponse, type JsonBodyType } from 'msw';

/**
 * The stories' mocks are Orval's generated msw handlers (src/api/gen/endpoints/<tag>/<operation>.msw.ts),
 * one per operation with the contract's path, method and success status, and typed by the
 * contract's schemas. src/mocks only says what they answer: a realistic fixture instead of faker
 * data, an error, or a wait. A contract change regenerates the handlers, and the fixtures that no
 * longer fit stop compiling.
 */
export interface ReplyOptions {
  /** An error status; without `body` the answer has no body at all. */
  status?: number;
  /** The error body to send with `status`, e.g. errorBodyFixture('Email already registered'). */
  body?: JsonBodyType;
  /** Milliseconds to wait, or 'infinite' to keep the request pending (loading states). */
  delay?: number | 'infinite';
}

/** An error answer, thrown from an override: msw sends a thrown Response as it is. */
export function failWith(status: number, body?: JsonBodyType): never {
  throw body === undefined ? new HttpResponse(null, { status }) : HttpResponse.json(body, { status });
}

/**
 * The override a generated handler takes: after `options.delay`, the error `options` names, else
 * `success` of the request (its params and body are in `info`).
 */
export function answer<Info, T>(
  options: ReplyOptions,
  success: (info: Info) => T | Promise<T>,
): (info: Info) => Promise<T> {
  return async (info) => {
    if (options.delay !== undefined) await delay(options.delay);
    if (options.status && options.status >= 400) failWith(options.status, options.body);
    return success(info);
  };
}

/** The same, from inside an override that first looks at the request itself. */
export function respond<T>(options: ReplyOptions, success: () => T | Promise<T>): Promise<T> {
  return answer(options, success)(undefined);
}
