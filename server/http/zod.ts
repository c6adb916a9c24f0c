import type { FastifyBaseLogger, FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import * as z from 'zod';
import { HttpError, type FieldError } from './errors';

/**
 * Routes declare the generated contract schemas (server/gen/contract.zod.ts) in `schema`:
 * body, querystring and params are validated and typed with them, responses are checked
 * against them. This type provider gives handlers the parsed types.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

function label(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  const name = typeof last === 'string' ? last.replace(/_/g, ' ') : 'Value';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A message a user can read, e.g. "Password must be at least 6 characters". */
function describeIssue(issue: z.core.$ZodIssue, data: unknown, part: HttpPart): string {
  const name = label(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length === 0) {
        if (part !== 'body') return `Invalid ${part}`;
        return issue.expected === 'array' ? 'Request body must be a JSON array' : 'Request body must be a JSON object';
      }
      return valueAt(data, issue.path) === undefined
        ? `${name} is required`
        : `${name} must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
    case 'too_small':
      if (issue.origin === 'string') return `${name} must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `${name} must have at least ${issue.minimum} items`;
      return `${name} must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `${name} must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `${name} must have at most ${issue.maximum} items`;
      return `${name} must be at most ${issue.maximum}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'Invalid email address';
      if (issue.format === 'url') return `${name} must be a valid URL`;
      if (issue.format === 'uuid') return `${name} must be a UUID`;
      return `${name} has an invalid format`;
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      // A choice among fixed values (a numeric enum is generated as a union of literals): name them.
      const values = issue.errors.every((branch) => branch.length === 1 && branch[0]?.code === 'invalid_value')
        ? issue.errors.flatMap((branch) => (branch[0] as z.core.$ZodIssueInvalidValue).values)
        : null;
      return values ? `${name} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` : issue.message;
    }
    default:
      return issue.message;
  }
}

export function validationError(error: z.ZodError, data: unknown, part: HttpPart): HttpError {
  const errors: FieldError[] = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : part,
    message: describeIssue(issue, data, part),
  }));
  const detail = [...new Set(errors.map((e) => e.message))].join('. ');
  return new HttpError(422, detail, { errors });
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType };
    if (def.innerType === undefined || !['optional', 'default', 'nullable', 'prefault'].includes(def.type))
      return current;
    current = def.innerType;
  }
}

/** Query strings and path params arrive as text; turn "2" and "true" into what the schema wants. */
function coerceStrings(schema: z.ZodType, data: unknown): unknown {
  if (!(schema instanceof z.ZodObject) || data === null || typeof data !== 'object') return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.core.$ZodType>)) {
    const raw = out[key];
    if (typeof raw !== 'string') continue;
    const type = unwrap(field)._zod.def.type;
    if (type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) out[key] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) out[key] = raw === 'true';
  }
  return out;
}

/**
 * Free text whose NUL characters (U+0000) are dropped: a stray NUL in pasted text is noise, and
 * PostgreSQL text cannot hold it. Anywhere else (identifiers, titles, search, keys, voice ids…)
 * a NUL is refused with 422 naming the field.
 */
export const NUL_STRIPPED_FIELDS: ReadonlySet<string> = new Set(['content', 'description']);

function nulError(path: readonly PropertyKey[], part: HttpPart): HttpError {
  const field = path.length > 0 ? path.map(String).join('.') : part;
  const message = `${label(path)} must not contain a NUL character (U+0000)`;
  return new HttpError(422, message, { errors: [{ field, message }] });
}

/** Strips NUL from free-text fields, or throws 422 for a NUL anywhere else (keys included). */
export function handleNul(data: unknown, part: HttpPart, path: PropertyKey[] = []): unknown {
  if (typeof data === 'string') {
    if (!data.includes('\u0000')) return data;
    const key = path.at(-1);
    if (typeof key === 'string' && NUL_STRIPPED_FIELDS.has(key)) return data.replaceAll('\u0000', '');
    throw nulError(path, part);
  }
  if (Array.isArray(data)) {
    let copy: unknown[] | null = null;
    data.forEach((item, i) => {
      const next = handleNul(item, part, [...path, i]);
      if (next !== item) (copy ??= [...data])[i] = next;
    });
    return copy ?? data;
  }
  if (data !== null && typeof data === 'object') {
    let copy: Record<string, unknown> | null = null;
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      if (key.includes('\u0000')) throw nulError([...path, key], part);
      const next = handleNul(value, part, [...path, key]);
      if (next !== value) (copy ??= { ...(data as Record<string, unknown>) })[key] = next;
    }
    return copy ?? data;
  }
  return data;
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = (httpPart ?? 'body') as HttpPart;
  return (data: unknown) => {
    let clean: unknown;
    try {
      clean = handleNul(data, part);
    } catch (error) {
      if (error instanceof HttpError) return { error };
      throw error;
    }
    // Fastify hands an absent body (see json-body.ts) to validation as null: treat it as absent, so
    // a route whose body is optional accepts it and one that needs a body names what is missing.
    const input =
      part === 'querystring' || part === 'params'
        ? coerceStrings(schema, clean)
        : part === 'body' && clean === null
          ? undefined
          : clean;
    const result = schema.safeParse(input);
    return result.success ? { value: result.data } : { error: validationError(result.error, input, part) };
  };
};

/**
 * Responses are parsed with their contract schema. Strict (dev and tests): a mismatch is a 500
 * naming the drift, so tests fail loudly. Otherwise the mismatch is logged and the data is sent.
 */
export function createZodSerializerCompiler(options: {
  strict: boolean;
  log: FastifyBaseLogger;
}): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) =>
    (data: unknown) => {
      const result = schema.safeParse(data);
      if (result.success) return JSON.stringify(result.data);
      const drift = `Response to ${method} ${url} (${httpStatus}) does not match the API contract: ${z.prettifyError(result.error)}`;
      if (options.strict) throw new Error(drift);
      options.log.error(drift);
      return JSON.stringify(data);
    };
}
