/**
 * The per-user lock of the quota checks: a transaction-scoped advisory lock on the user's id (no
 * table), so concurrent requests of one user are counted one after the other without touching
 * the users table.
 */
import type { DbExecutor } from '../../db/types';

/** Namespace of the per-user advisory locks (the two-key form, apart from pg-boss's one-key locks). */
const OWNER_LOCK_SPACE = 7415;

/** Holds the user's lock until the transaction `x` ends. */
export async function lockOwner(x: DbExecutor, userId: string): Promise<void> {
  await x.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OWNER_LOCK_SPACE, userId]);
}
