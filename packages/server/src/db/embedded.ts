import { chmodSync, mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** A postgres:// URL reaching the embedded database on loopback. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL in WebAssembly) on `dataDir` and serves it on a loopback port, so the server
 * talks to it through postgres.js exactly as it talks to a real PostgreSQL.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) {
    // PGlite writes its files world-readable; the directory keeps them to this OS user.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  }
  const db = await PGlite.create(inMemory ? undefined : dataDir, { extensions: { btree_gin, pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const address = server.getServerConn();
  return {
    url: `postgres://postgres@${address}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
