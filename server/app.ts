import Fastify, { type FastifyInstance } from 'fastify';
import { createPasswordHasher, type ScryptCost } from './auth/passwords';
import { createAuthService } from './auth/service';
import { createLoginThrottle } from './auth/throttle';
import { createTokenService } from './auth/tokens';
import { createUserRepository } from './auth/users';
import type { Config } from './config';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open';
import type { Db } from './db/types';
import { environmentInfo } from './environment/info';
import { installErrorHandler } from './http/errors';
import { installNotFound, installSpa } from './http/spa';
import { createZodSerializerCompiler, zodValidatorCompiler } from './http/zod';
import { apiRoutes } from './routes/index';

export interface AppDeps {
  /** A database to use instead of opening the configured one; the caller keeps ownership (closes it). */
  db?: Db;
  /** The clock for timestamps, token expiry and throttling windows. */
  now?: () => Date;
  /**
   * Lower scrypt cost, FOR TESTS ONLY (hashing at OWASP cost takes ~0.3 s). Production never
   * passes it, so it hashes at OWASP parameters. Hashes record their cost, so they verify anywhere.
   */
  passwordCost?: ScryptCost;
}

/** Fastify's default; routes that take larger bodies set their own `bodyLimit`. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The composition root: opens the database (unless given), migrates it, chooses every adapter
 * and registers the routes. It does not listen; main.ts (or a test with app.inject) does.
 */
export async function createApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: DEFAULT_BODY_LIMIT,
  });

  const db = deps.db ?? (await openDatabase(config));
  if (deps.db === undefined) app.addHook('onClose', () => db.close());
  try {
    await migrate(db);
  } catch (error) {
    await app.close();
    throw error;
  }

  const auth = createAuthService({
    users: createUserRepository(db),
    passwords: createPasswordHasher(deps.passwordCost),
    tokens: createTokenService({ secret: config.jwtSecret, ttlSeconds: config.tokenTtlSeconds, now }),
    throttle: createLoginThrottle({ windowSeconds: config.loginWindowSeconds, now }),
    signupEnabled: config.signupEnabled,
    loginMaxAttempts: config.loginMaxAttempts,
    now,
  });

  // The API speaks JSON only: text/plain bodies get 415 instead of failing validation as strings.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(createZodSerializerCompiler({ strict: config.appEnv !== 'production', log: app.log }));
  installErrorHandler(app);
  installNotFound(app, config.staticDir);

  await app.register(apiRoutes({ auth, environment: environmentInfo(config) }), { prefix: '/api/v1' });
  if (config.staticDir !== undefined) await installSpa(app, config.staticDir);

  return app;
}
