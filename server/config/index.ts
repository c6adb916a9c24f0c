/**
 * The server's configuration: every environment variable it reads is declared once, in the
 * section of the domain that uses it (core.ts, auth.ts, http.ts, voices.ts, voice-server.ts, jobs.ts,
 * storage.ts, ops.ts, assistant.ts), with its parsing, default and description (declare.ts). From those
 * declarations come the parsed config and its type (`loadConfig`, `Config`) and the README's
 * table (`CONFIG_SECTIONS`, scripts/readme-config.ts). To add a variable, add one declaration to
 * its section; nothing else lists it.
 */
import * as z from 'zod';
import { assistantSection } from './assistant';
import { authSection } from './auth';
import { coreSection } from './core';
import { ConfigError, type SliceOf, type Variable } from './declare';
import { httpSection } from './http';
import { jobsSection } from './jobs';
import { opsSection } from './ops';
import { storageSection } from './storage';
import { voiceServerSection } from './voice-server';
import { voicesSection } from './voices';

export { ConfigError } from './declare';
export { jwtSecretPath } from './auth';
export type { AppEnv } from './core';

/** In the order the README lists them. */
export const CONFIG_SECTIONS = [
  coreSection,
  authSection,
  httpSection,
  voicesSection,
  voiceServerSection,
  jobsSection,
  storageSection,
  opsSection,
  assistantSection,
] as const;

type Sections = typeof CONFIG_SECTIONS;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The parsed configuration: one field per variable (or per group of variables a section derives one from). */
export type Config = UnionToIntersection<SliceOf<Sections[number]>>;

const allVariables = (): Variable<unknown>[] =>
  CONFIG_SECTIONS.flatMap((s) => Object.values(s.variables as Record<string, Variable<unknown>>));

/**
 * Reads and validates the environment. Throws ConfigError naming every bad variable, its value
 * (never a secret's) and what is allowed. Side effect: without JWT_SECRET, creates
 * DATA_DIR/jwt-secret once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const schema = z.object(Object.fromEntries(allVariables().map((v) => [v.name, v.schema])));
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  // What each section's derive may read: every variable's parsed value by name, and the raw
  // environment for names we do not declare (AWS_REGION, read by the S3 client too).
  const all: Record<string, unknown> = { ...env, ...parsed.data };
  const config: Record<string, unknown> = {};
  for (const section of CONFIG_SECTIONS) {
    const variables = section.variables as Record<string, Variable<unknown>>;
    const values = Object.fromEntries(Object.entries(variables).map(([key, v]) => [key, parsed.data[v.name]]));
    for (const [key, value] of Object.entries(values)) {
      if (!(section.rawOnly as readonly string[]).includes(key)) config[key] = value;
    }
    Object.assign(config, (section.derive as (values: unknown, all: unknown) => object)(values, all));
  }
  return config as Config;
}
