import postgres from 'postgres';
import { startEmbeddedPostgres } from './embedded.js';
import type { Sql } from './types.js';

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it, the embedded database in `dataDir` is started. */
  url?: string | undefined;
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

/** What every pool shares, wherever it connects. */
function poolOptions(options: { max: number; statementTimeoutMs: number }) {
  return {
    max: options.max,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    types: { bigint: BIGINT_AS_NUMBER },
    connection: {
      application_name: 'coinventory-server',
      ...(options.statementTimeoutMs > 0 ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
  };
}

export function createSql(url: string, options: { max: number; statementTimeoutMs: number }): Sql {
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

export async function connectDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const sql = createSql(options.url, { max: options.poolSize, statementTimeoutMs: options.statementTimeoutMs });
    return { sql, kind: 'postgres', close: () => sql.end({ timeout: 5 }) };
  }
  const embedded = await startEmbeddedPostgres(options.dataDir, { image: options.embeddedImage });
  const sql = createEmbeddedSql(embedded.socketPath);
  return {
    sql,
    kind: 'embedded',
    image: () => embedded.image(),
    close: async () => {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    },
  };
}
