import { existsSync } from 'node:fs';
import path from 'node:path';
import { resetLink } from '../auth/mail';
import { createPasswordResets } from '../auth/password-resets';
import { normalizeEmail } from '../auth/service';
import { createUserRepository } from '../auth/users';
import { ConfigError, loadConfig, type Config } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';

const USAGE = 'Usage: npm run user -- reset-password EMAIL';

/** The origin a link opens: PUBLIC_URL, else this machine at PORT (what `npm start` prints). */
function origin(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/**
 * `npm run user -- reset-password EMAIL`: prints a one-time link that sets a new password for the
 * account, for operators whose server sends no email (no SMTP_URL). The link works once, for
 * PASSWORD_RESET_TTL_SECONDS; using it signs out every session of the account. Same configuration
 * (environment variables) as the server. On the embedded database, stop the server first (it
 * belongs to the one process that opened it).
 */
export async function runUserCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  out: { log(line: string): void; error(line: string): void },
): Promise<number> {
  const [command, email] = args;
  if (command !== 'reset-password' || email === undefined || email.trim() === '') {
    out.error(USAGE);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      out.error(`Lectio user command cannot start: ${error.message}`);
      return 1;
    }
    throw error;
  }
  if (config.databaseUrl === undefined && existsSync(path.join(config.dataDir, 'db', 'postmaster.pid'))) {
    out.error(
      `The embedded database in ${path.join(config.dataDir, 'db')} is open in a running server: stop the server, run this, and start it again (or use PostgreSQL)`,
    );
    return 1;
  }
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const user = await createUserRepository(db).findByEmail(normalizeEmail(email));
    if (user === null) {
      out.error(`No account has the email ${normalizeEmail(email)}.`);
      return 1;
    }
    const token = await createPasswordResets(db, {
      ttlSeconds: config.passwordResetTtlSeconds,
      now: () => new Date(),
    }).create(user.id);
    const minutes = Math.round(config.passwordResetTtlSeconds / 60);
    out.log(`A link that sets a new password for ${user.email} (it works once, for ${minutes} minutes):`);
    out.log(resetLink(origin(config), token));
    return 0;
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  runUserCommand(process.argv.slice(2), process.env, console).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('Lectio user command failed:', error);
      process.exit(1);
    },
  );
}
