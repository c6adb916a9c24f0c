import { isIP } from 'node:net';
import * as z from 'zod';

/**
 * One environment variable, declared once: its name, how it is parsed (with the message a bad
 * value gets), the default as the README shows it, and what it means. The parsed config's type,
 * the parsing and the README's table all come from these declarations (server/config/index.ts).
 */
export interface Variable<T> {
  readonly name: string;
  readonly description: string;
  /** The default as a reader should see it: a value, or what happens when the variable is unset. */
  readonly shownDefault: string;
  readonly schema: z.ZodType<T>;
}

type Raw = string | undefined;
const blank = (raw: Raw): raw is undefined => raw === undefined || raw.trim() === '';

function declare<T>(name: string, shownDefault: string, description: string, schema: z.ZodType<T>): Variable<T> {
  return { name, shownDefault, description, schema };
}

/** An integer within bounds; unset or empty gives the default. */
export function integer(
  name: string,
  bounds: { min: number; max: number; default: number; shown?: string },
  description: string,
): Variable<number> {
  return declare(
    name,
    bounds.shown ?? String(bounds.default),
    description,
    integerSchema(name, bounds, bounds.default),
  );
}

/** An integer within bounds, or undefined when unset. */
export function optionalInteger(
  name: string,
  bounds: { min: number; max: number; shown?: string },
  description: string,
): Variable<number | undefined> {
  return declare(name, bounds.shown ?? '(unset)', description, integerSchema(name, bounds, undefined));
}

function integerSchema<D extends number | undefined>(name: string, bounds: { min: number; max: number }, fallback: D) {
  const allowed = `${name} must be an integer from ${bounds.min} to ${bounds.max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx): number | D => {
      if (blank(raw)) return fallback;
      const value = Number(raw.trim());
      if (!/^-?\d+$/.test(raw.trim()) || value < bounds.min || value > bounds.max) {
        ctx.addIssue({ code: 'custom', message: `${allowed} (got ${JSON.stringify(raw)})` });
        return z.NEVER;
      }
      return value;
    });
}

/** One of a few words (compared case-insensitively); unset gives the default. */
export function oneOf<const T extends readonly string[]>(
  name: string,
  values: T,
  options: { default: T[number]; shown?: string },
  description: string,
): Variable<T[number]> {
  return declare(name, options.shown ?? options.default, description, wordSchema(name, values, options.default));
}

/** One of a few words, or undefined when unset (when the default depends on another variable). */
export function optionalOneOf<const T extends readonly string[]>(
  name: string,
  values: T,
  shownDefault: string,
  description: string,
): Variable<T[number] | undefined> {
  return declare(name, shownDefault, description, wordSchema(name, values, undefined));
}

function wordSchema<const T extends readonly string[], D extends T[number] | undefined>(
  name: string,
  values: T,
  fallback: D,
) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T[number] | D => {
      if (blank(raw)) return fallback;
      const value = raw.trim().toLowerCase();
      if (!values.includes(value)) {
        const listed = values.map((v) => `'${v}'`).join(', ');
        ctx.addIssue({ code: 'custom', message: `${name} must be one of ${listed} (got ${JSON.stringify(raw)})` });
        return z.NEVER;
      }
      return value as T[number];
    });
}

/** 'true' or 'false'; unset gives the default. */
export function flag(name: string, options: { default: boolean }, description: string): Variable<boolean> {
  const word = oneOf(name, ['true', 'false'] as const, { default: options.default ? 'true' : 'false' }, description);
  return { ...word, schema: word.schema.transform((value) => value === 'true') };
}

/**
 * Free text, or undefined when unset or empty. `check` returns the message for a bad value; it
 * must never echo a secret. `transform` turns a good value into its parsed form.
 */
export function text(
  name: string,
  options: { shown?: string; check?: (value: string) => string | undefined },
  description: string,
): Variable<string | undefined>;
export function text<T>(
  name: string,
  options: { shown?: string; check?: (value: string) => string | undefined; transform: (value: string) => T },
  description: string,
): Variable<T | undefined>;
export function text<T>(
  name: string,
  options: { shown?: string; check?: (value: string) => string | undefined; transform?: (value: string) => T },
  description: string,
): Variable<T | string | undefined> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx): T | string | undefined => {
      if (blank(raw)) return undefined;
      const value = raw.trim();
      const problem = options.check?.(value);
      if (problem !== undefined) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return options.transform ? options.transform(value) : value;
    });
  return declare(name, options.shown ?? '(unset)', description, schema);
}

/** Free text with a default for when it is unset or empty. */
export function textOr(name: string, options: { default: string }, description: string): Variable<string> {
  const schema = z
    .string()
    .optional()
    .transform((raw) => (blank(raw) ? options.default : raw.trim()));
  return declare(name, options.default, description, schema);
}

/** An http(s) URL, or undefined when unset. */
export function httpUrl(name: string, shownDefault: string, description: string): Variable<string | undefined> {
  return text(
    name,
    {
      shown: shownDefault,
      check: (url) => (/^https?:\/\/./.test(url) ? undefined : `${name} must be an http:// or https:// URL`),
    },
    description,
  );
}

/** A comma-separated list; `bad` names the entries that are not allowed, `problem` words the message. */
export function list(
  name: string,
  options: { shown: string; bad: (entry: string) => boolean; problem: (bad: string) => string },
  description: string,
): Variable<string[]> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx): string[] => {
      const entries = (raw ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const bad = entries.filter(options.bad);
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: options.problem(bad.map((entry) => JSON.stringify(entry)).join(', ')),
        });
        return z.NEVER;
      }
      return entries;
    });
  return declare(name, options.shown, description, schema);
}

/** `scheme://host[:port]` of an http(s) address that has no path, query or fragment; else null. */
export function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const bare = (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
    if (!bare || url.username !== '' || url.password !== '') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** An IPv4/IPv6 address, optionally with a /prefix length that fits it. */
export function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A group of variables of one domain, and the fields it derives from them (and from others'). */
export interface Section<V extends Record<string, Variable<unknown>>, D, H extends keyof V> {
  readonly title: string;
  readonly variables: V;
  /** Variables only read by `derive`: they are not fields of the config themselves. */
  readonly rawOnly: readonly H[];
  readonly derive: (values: ValuesOf<V>, all: Readonly<Record<string, unknown>>) => D;
}

export type ValuesOf<V> = { [K in keyof V]: V[K] extends Variable<infer T> ? T : never };

/** The config fields a section contributes: its variables' values (but the raw-only ones) and what it derives. */
export type SliceOf<S> = S extends Section<infer V, infer D, infer H> ? Omit<ValuesOf<V>, H> & D : never;

export function section<V extends Record<string, Variable<unknown>>, D = unknown, H extends keyof V = never>(options: {
  title: string;
  variables: V;
  rawOnly?: readonly H[];
  derive?: (values: ValuesOf<V>, all: Readonly<Record<string, unknown>>) => D;
}): Section<V, D, H> {
  return {
    title: options.title,
    variables: options.variables,
    rawOnly: options.rawOnly ?? [],
    derive: options.derive ?? (() => ({}) as D),
  };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
