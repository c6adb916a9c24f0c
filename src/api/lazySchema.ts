/**
 * Generated zod schemas loaded on demand. In the production build every model module of
 * src/api/gen/model is replaced by a stub whose exports are `lazySchema(...)` stand-ins
 * (tools/vite/lazy-models.mjs), so zod and the schemas form one chunk fetched with the first
 * answer to validate, not before the first screen. `resolveSchema` turns a stand-in into the
 * real schema; anything else (the schemas themselves, in tests and development) passes through.
 */
const LOAD = Symbol.for('lectio.lazySchema');

const LOADED = Symbol.for('lectio.lazySchema.loaded');

interface LazySchema {
  readonly [LOAD]: () => Promise<unknown>;
  /** The real schema once loaded. */
  [LOADED]?: unknown;
}

function isLazy(value: unknown): value is LazySchema {
  return typeof value === 'object' && value !== null && LOAD in value;
}

export function lazySchema(load: () => Promise<unknown>): LazySchema {
  let loading: Promise<unknown> | undefined;
  const misuse = () => {
    throw new Error('This schema is loaded on demand: pass it through resolveSchema() first');
  };
  const standIn: LazySchema = {
    [LOAD]: () =>
      (loading ??= load().then((real) => {
        standIn[LOADED] = real;
        return real;
      })),
  };
  Object.assign(standIn, { parse: misuse, safeParse: misuse });
  return standIn;
}

/** The real schema when it is at hand now (not a stand-in, or one already loaded), else null. */
export function loadedSchema<T>(schema: T): T | null {
  if (!isLazy(schema)) return schema;
  return (schema[LOADED] as T | undefined) ?? null;
}

/** The real schema behind `schema` (loading its chunk the first time). */
export async function resolveSchema<T>(schema: T): Promise<T> {
  return isLazy(schema) ? ((await schema[LOAD]()) as T) : schema;
}
