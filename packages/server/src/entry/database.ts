import type { Database } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { explainDatabaseFailure, explainingFailures, migrationTarget, poolTarget } from '../db/unavailable.js';
import { ConfigError, type Env } from '../env.js';
import type { Logger } from '../logger.js';

/** The parameter PgBouncer refused in the startup packet (08P01 "unsupported startup parameter: …"), if that failed. */
function refusedStartupParameter(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  return /^unsupported startup parameter: (\S+)/.exec(message)?.[1];
}

function refusal(env: Env, parameter: string): ConfigError {
  return new ConfigError(
    env.DATABASE_POOLER === 'none'
      ? `DATABASE_URL refused the startup parameter ${parameter}: it goes through a pooler such as PgBouncer, which ` +
          'refuses it. Set DATABASE_POOLER=transaction (it suits PgBouncer in any pool mode): the server then sends ' +
          'no such parameter. See "Through PgBouncer" in the deploying guide.'
      : `DATABASE_URL's pooler refused the startup parameter ${parameter}: remove it from the URL's query string, ` +
          "or list it in PgBouncer's ignore_startup_parameters.",
  );
}

/**
 * On PostgreSQL, once per process at start: warns when the statement_timeout the database applies to the pool's
 * statements is not STATEMENT_TIMEOUT_MS. Through a transaction pooler the server cannot set it (the pooler's
 * connect_query or the role does, and a mistake there would go unseen); directly, the server sends it when
 * connecting, so a difference means something in between dropped it (PgBouncer's ignore_startup_parameters). It is
 * the pool's first statement, so a pooler that refuses the connection's startup parameters is named here too.
 * It samples one server connection: a pooler's connections are all set up alike.
 */
export async function checkStatementTimeout(database: Database, env: Env, logger: Logger): Promise<void> {
  if (database.kind !== 'postgres') return;
  let databaseMs: number;
  try {
    const [row] = await database.sql<{ ms: number }[]>`
      SELECT setting::int AS ms FROM pg_settings WHERE name = 'statement_timeout'
    `;
    databaseMs = row?.ms ?? 0;
  } catch (error) {
    // The first statement of a start: a database that cannot be reached or refuses the login fails it in one line.
    const parameter = refusedStartupParameter(error);
    const target = poolTarget(env.DATABASE_URL ?? '');
    throw parameter ? refusal(env, parameter) : (explainDatabaseFailure(error, target) ?? error);
  }
  const configuredMs = env.STATEMENT_TIMEOUT_MS;
  if (databaseMs === configuredMs) return;
  const fix =
    env.DATABASE_POOLER === 'transaction'
      ? `with DATABASE_POOLER=transaction the server does not set it: set it in PgBouncer ` +
        `(connect_query='SET statement_timeout = ${configuredMs}' on the database's line) or on the role ` +
        `(ALTER ROLE … SET statement_timeout = ${configuredMs}), or make STATEMENT_TIMEOUT_MS agree`
      : 'the server sends it when connecting, so something in between dropped it (PgBouncer with ' +
        'ignore_startup_parameters?): through a pooler, set DATABASE_POOLER=transaction and set it there';
  logger.warn({ databaseMs, configuredMs, fix }, "the database's statement_timeout differs from STATEMENT_TIMEOUT_MS");
}

/** Applies pending migrations (over DATABASE_DIRECT_URL when set); PostgreSQL out of reach fails it in one line. */
export function migrateDatabase(database: Database, env: Env) {
  const work = () => database.direct(migrate);
  if (database.kind !== 'postgres' || !env.DATABASE_URL) return work();
  return explainingFailures(migrationTarget(env.DATABASE_URL, env.DATABASE_DIRECT_URL), work);
}
