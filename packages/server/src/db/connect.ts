import postgres from 'postgres';
import { startEmbeddedPostgres } from './embedded.js';
import type { Sql } from './types.js';

/**
 * What stands between the server and PostgreSQL on the pool's URL. `transaction`: a transaction-pooling pooler
 * (PgBouncer with pool_mode = transaction), which lends a server connection for one transaction, or one statement
 * outside a transaction, so nothing may rely on a session (prepared statements, session settings, LISTEN).
 */
export type Pooler = 'none' | 'transaction';

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it, the embedded database in `dataDir` is started. */
  url?: string | undefined;
  /** What `url` goes through (default `none`). */
  pooler?: Pooler | undefined;
  /** The same database reached directly, past the pooler: what `Database.direct` runs on. */
  directUrl?: string | undefined;
  /** Embedded database directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize: number;
  statementTimeoutMs: number;
  /** A `memory://` embedded database starts from this image (see EmbeddedOptions); tests use it. */
  embeddedImage?: Blob | undefined;
}

export interface Database {
  sql: Sql;
  kind: 'embedded' | 'postgres';
  /** The embedded database's files as one image (undefined on PostgreSQL). */
  image?: () => Promise<Blob>;
  /**
   * Runs `work` past the pooler (the migrations): on a one-connection pool to the direct URL, opened for it and closed
   * after, when there is one; otherwise on `sql`.
   */
  direct<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Closes the pool, then the embedded database if there is one. */
  close(): Promise<void>;
}

// int8 (bigint) columns hold cents, bounded by the contract to Number.MAX_SAFE_INTEGER: read them as numbers.
const BIGINT_AS_NUMBER = {
  to: 20,
  from: [20],
  serialize: (value: number) => String(value),
  parse: (value: string) => Number(value),
};

/**
 * Seconds a pool connection waits before it reconnects, given the pool's count of connection errors since its last
 * successful connect. postgres.js grows this to 20 s, and a query handed to a waiting connection waits with it: with
 * the database's port refusing connections, requests hung until the request deadline, and once the database was back
 * a connection stayed away for up to 20 s more (measured: 17 s to serve 8 queries). Capped at 1 s, a request fails or
 * succeeds within about a second, and each connection still tries at most about once a second while the database is
 * down. The jitter keeps many processes from retrying in step.
 */
export const MAX_RECONNECT_DELAY_S = 1;

export function reconnectDelaySeconds(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, MAX_RECONNECT_DELAY_S);
}

export interface PoolOptions {
  max: number;
  /** Sent as the session's statement_timeout when connecting (0: not sent), unless `pooler` is `transaction`. */
  statementTimeoutMs: number;
  pooler?: Pooler | undefined;
}

/** What every pool shares, wherever it connects. */
function poolOptions({ max, statementTimeoutMs, pooler = 'none' }: PoolOptions) {
  const pooled = pooler === 'transaction';
  return {
    max,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    types: { bigint: BIGINT_AS_NUMBER },
    // Through a transaction pooler, consecutive statements may run on different server connections:
    // - a named prepared statement exists only on the connection that prepared it, so none are made;
    // - no pipelining. PgBouncer 1.18 gives the server connection back to its pool at the ReadyForQuery of the last
    //   Sync it forwarded; a query with parameters sent behind another (without prepared statements postgres.js sends
    //   its Parse and Describe with Flush, not Sync) then loses its answers ("got packet '1' from server when not
    //   linked") and hangs for good. Measured with `SELECT 1` (what /readyz runs) and a query with a parameter on one
    //   connection. One statement at a time per connection avoids it.
    ...(pooled ? { prepare: false, max_pipeline: 0 } : {}),
    connection: {
      application_name: 'coinventory-server',
      // PgBouncer refuses a startup parameter it does not know ("unsupported startup parameter"), or silently drops
      // it when told to ignore it: through it, statement_timeout is set by the pooler or the role (see
      // checkStatementTimeout in entry/database.ts).
      ...(statementTimeoutMs > 0 && !pooled ? { statement_timeout: statementTimeoutMs } : {}),
    },
  };
}

export function createSql(url: string, options: PoolOptions): Sql {
  return postgres(url, poolOptions(options)) as unknown as Sql;
}

/**
 * The pool on the embedded database: its one connection, on the database's Unix socket. PGlite is one PostgreSQL
 * session, so transactions never interleave, and the socket server takes one client. The connection is kept for
 * the process's life: postgres.js otherwise replaces it after 30 to 60 minutes (max_lifetime), a needless
 * reconnect that would briefly leave the socket's one slot free.
 */
export function createEmbeddedSql(socketPath: string): Sql {
  return postgres({
    ...poolOptions({ max: 1, statementTimeoutMs: 0 }),
    path: socketPath,
    user: 'postgres',
    database: 'postgres',
    max_lifetime: null,
    idle_timeout: 0,
  }) as unknown as Sql;
}

/** The settings (env.ts) that say where the database is and how it is reached. */
export interface DatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATABASE_DIRECT_URL?: string | undefined;
  DATABASE_POOLER: Pooler;
  COINVENTORY_DATA_DIR: string;
}

/** The options of a process's pool on the configured database. */
export function databaseOptions(
  settings: DatabaseSettings,
  pool: { poolSize: number; statementTimeoutMs: number },
): DatabaseOptions {
  return {
    url: settings.DATABASE_URL,
    directUrl: settings.DATABASE_DIRECT_URL,
    pooler: settings.DATABASE_POOLER,
    dataDir: settings.COINVENTORY_DATA_DIR,
    ...pool,
  };
}

export async function connectDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const { directUrl, statementTimeoutMs } = options;
    const sql = createSql(options.url, { max: options.poolSize, statementTimeoutMs, pooler: options.pooler });
    const direct = async <T>(work: (sql: Sql) => Promise<T>): Promise<T> => {
      if (!directUrl) return work(sql);
      // postgres.js connects lazily: this pool costs a connection only while the work runs.
      const session = createSql(directUrl, { max: 1, statementTimeoutMs });
      try {
        return await work(session);
      } finally {
        await session.end({ timeout: 5 });
      }
    };
    return { sql, kind: 'postgres', direct, close: () => sql.end({ timeout: 5 }) };
  }
  const embedded = await startEmbeddedPostgres(options.dataDir, { image: options.embeddedImage });
  const sql = createEmbeddedSql(embedded.socketPath);
  return {
    sql,
    kind: 'embedded',
    image: () => embedded.image(),
    direct: (work) => work(sql),
    close: async () => {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    },
  };
}
