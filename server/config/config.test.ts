import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONFIG_SECTIONS, ConfigError, jwtSecretPath, loadConfig } from '.';
import type { Variable } from './declare';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'lectio-config-'));
}

/** Valid apart from the variables under test, and never touching ./data. */
function env(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { DATA_DIR: tempDir(), JWT_SECRET: 'x'.repeat(32), ...vars };
}

function configError(vars: Record<string, string>): string {
  try {
    loadConfig(env(vars));
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('starts with sensible defaults', () => {
    const config = loadConfig(env({}));
    expect(config).toMatchObject({
      port: 8080,
      host: 'localhost',
      appEnv: 'dev',
      signupEnabled: true,
      tokenTtlSeconds: 28_800,
      loginMaxAttempts: 5,
      loginWindowSeconds: 900,
      logLevel: 'info',
    });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('names the variable, the bad value and what is allowed', () => {
    expect(configError({ PORT: 'abc' })).toBe('PORT must be an integer from 1 to 65535 (got "abc")');
    expect(configError({ PORT: '70000' })).toBe('PORT must be an integer from 1 to 65535 (got "70000")');
    expect(configError({ APP_ENV: 'staging' })).toBe("APP_ENV must be one of 'dev', 'production' (got \"staging\")");
    expect(configError({ SIGNUP_ENABLED: 'yes' })).toBe("SIGNUP_ENABLED must be one of 'true', 'false' (got \"yes\")");
    expect(configError({ TOKEN_TTL_SECONDS: '59' })).toBe(
      'TOKEN_TTL_SECONDS must be an integer from 60 to 604800 (got "59")',
    );
    expect(configError({ TOKEN_TTL_SECONDS: '1.5' })).toContain('TOKEN_TTL_SECONDS must be an integer');
    expect(configError({ DATABASE_URL: 'mysql://u:p@h/db' })).toBe(
      'DATABASE_URL must be a postgres:// or postgresql:// URL (got one starting with "mysql:")',
    );
  });

  it('chooses the offline speech path: auto by default, native or portable on request, nothing else', () => {
    expect(loadConfig(env({})).espeakEngine).toBe('auto');
    expect(loadConfig(env({ ESPEAK_ENGINE: 'portable' })).espeakEngine).toBe('portable');
    expect(loadConfig(env({ ESPEAK_ENGINE: 'Native' })).espeakEngine).toBe('native');
    expect(configError({ ESPEAK_ENGINE: 'wasm' })).toBe(
      "ESPEAK_ENGINE must be one of 'auto', 'native', 'portable' (got \"wasm\")",
    );
  });

  it('sizes the PostgreSQL pool: 20 connections by default, DATABASE_POOL_SIZE within 1-500', () => {
    expect(loadConfig(env({})).databasePoolSize).toBe(20);
    expect(loadConfig(env({ DATABASE_POOL_SIZE: '40' })).databasePoolSize).toBe(40);
    expect(configError({ DATABASE_POOL_SIZE: '0' })).toContain('DATABASE_POOL_SIZE');
  });

  it('reports every bad variable at once', () => {
    const message = configError({ PORT: '0', LOG_LEVEL: 'loud' });
    expect(message).toContain('PORT must be');
    expect(message).toContain('LOG_LEVEL must be one of');
  });

  it('refuses a short JWT_SECRET without echoing it', () => {
    const message = configError({ JWT_SECRET: 'hunter2' });
    expect(message).toContain('JWT_SECRET must be at least 32 characters');
    expect(message).not.toContain('hunter2');
  });

  it('disables sign-up in production unless SIGNUP_ENABLED says otherwise', () => {
    expect(loadConfig(env({ APP_ENV: 'production' })).signupEnabled).toBe(false);
    expect(loadConfig(env({ APP_ENV: 'production', SIGNUP_ENABLED: 'true' })).signupEnabled).toBe(true);
    expect(loadConfig(env({ SIGNUP_ENABLED: 'false' })).signupEnabled).toBe(false);
  });

  it('generates a JWT secret once, private to the owner, and reuses it on restart', () => {
    const dataDir = path.join(tempDir(), 'nested');
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = jwtSecretPath(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBe(48);
    expect(readFileSync(file, 'utf8')).not.toBe('');

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);

    const elsewhere = loadConfig({ DATA_DIR: tempDir() });
    expect(Buffer.from(elsewhere.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(false);
  });

  it('serves the SPA only from a directory that holds index.html', () => {
    expect(configError({ STATIC_DIR: tempDir() })).toContain('STATIC_DIR must be a directory containing index.html');
  });
});

describe('TRUST_PROXY and the HTTP timeouts', () => {
  it('trusts no proxy by default and reads a list of addresses and CIDRs', () => {
    expect(loadConfig(env({})).trustProxy).toEqual([]);
    expect(loadConfig(env({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1 ,fd00::/8' })).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });

  it('names the entries of TRUST_PROXY that are not addresses', () => {
    expect(configError({ TRUST_PROXY: '127.0.0.1,proxy.local,10.0.0.0/33' })).toBe(
      'TRUST_PROXY must be a comma-separated list of IP addresses or CIDRs such as 10.0.0.0/8 (not "proxy.local", "10.0.0.0/33")',
    );
  });

  it('closes stalled requests within 30 s by default, and refuses a headers timeout longer than the request timeout', () => {
    const config = loadConfig(env({}));
    expect(config.httpIdleTimeoutSeconds).toBeLessThanOrEqual(30);
    expect(config.httpHeadersTimeoutSeconds).toBeLessThanOrEqual(30);
    expect(configError({ HTTP_HEADERS_TIMEOUT_SECONDS: '60', HTTP_REQUEST_TIMEOUT_SECONDS: '30' })).toBe(
      'HTTP_HEADERS_TIMEOUT_SECONDS (60) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (30)',
    );
  });
});

describe('declared once', () => {
  const declared = CONFIG_SECTIONS.flatMap((section) =>
    Object.values(section.variables as Record<string, Variable<unknown>>),
  );

  it('declares each variable once, with a default and a description', () => {
    const names = declared.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const v of declared) {
      expect(v.shownDefault, v.name).not.toBe('');
      expect(v.description.length, v.name).toBeGreaterThan(10);
    }
  });

  it('reads no environment variable of ours that is not declared', () => {
    // The system's own variables (PATH) and the AWS SDK's (AWS_*) are not ours to declare.
    const notOurs = /^(PATH|AWS_\w+|NODE_\w+)$/;
    const root = path.resolve(import.meta.dirname, '..');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (file) =>
        /\.(ts|mjs)$/.test(file) && !/\.test\.ts$/.test(file) && !file.startsWith('testing') && !file.startsWith('gen'),
    );
    const read = new Set<string>();
    for (const file of sources) {
      for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) {
        read.add(match[1]!);
      }
    }
    const names = new Set(declared.map((v) => v.name));
    expect([...read].filter((name) => !notOurs.test(name) && !names.has(name))).toEqual([]);
  });
});
