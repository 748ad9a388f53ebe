import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { readInitdbImage } from './initdb-image.js';

export interface EmbeddedPostgres {
  /** The Unix socket the embedded database is served on (postgres.js's `path` option). */
  socketPath: string;
  /** The database's files as one image (a tarball), which a later in-memory start can begin from. */
  image(): Promise<Blob>;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /**
   * For a `memory://` database: start from this image (from `image()`) instead of an empty cluster. Tests start
   * from an image of a migrated database, which saves each of them an initdb and the migrations.
   */
  image?: Blob | undefined;
}

/** The socket's name in the data directory, beside admin.sock. */
export const EMBEDDED_SOCKET_NAME = 'postgres.sock';

/**
 * Longest socket path that fits a sockaddr_un (108 bytes on Linux, 104 on macOS, both counting the final NUL).
 * Past it listen() fails, so a deeper data directory gets its socket in a private temporary directory instead.
 */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Starts PGlite (PostgreSQL in WebAssembly) on `dataDir` and serves it on a Unix socket, so the server talks to it
 * through postgres.js exactly as it talks to a real PostgreSQL.
 *
 * Never on a TCP port: the embedded database has no password, and a loopback port is open to every local user
 * (one connected in the moment postgres.js replaced its connection and read every organization's rows). The socket is
 * in the data directory (mode 0700) and itself mode 0600, so only the server's OS user can connect, as with
 * admin.sock. A `memory://` database, or a data directory too deep for a socket path, gets a private temporary
 * directory (mode 0700) instead, removed on stop.
 */
export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  if (options.image && !inMemory) throw new Error('an embedded database image can only start a memory:// database');
  if (!inMemory) {
    // PGlite writes its files world-readable; the directory keeps them to this OS user.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  }
  const inDataDir = inMemory ? undefined : join(resolve(dataDir), EMBEDDED_SOCKET_NAME);
  const privateDir =
    inDataDir && Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH_BYTES
      ? undefined
      : mkdtempSync(join(tmpdir(), 'coinventory-db-'));
  const socketPath = privateDir ? join(privateDir, EMBEDDED_SOCKET_NAME) : (inDataDir as string);
  const removePrivateDir = () => {
    if (privateDir) rmSync(privateDir, { recursive: true, force: true });
  };

  // A new database starts from the image given, or else from the build's copy of an empty cluster (initdb-image.ts).
  // An existing one never gets an image: PGlite would write it over the files.
  const isNew = inMemory || !existsSync(join(dataDir, 'PG_VERSION'));
  const image = options.image ?? (isNew ? readInitdbImage(dirname(fileURLToPath(import.meta.url))) : undefined);

  let db: PGlite | undefined;
  try {
    db = await PGlite.create(inMemory ? undefined : dataDir, {
      extensions: { btree_gin, pg_trgm },
      ...(image && { loadDataDir: image }),
    });
    // Whoever opens the data directory holds its lock (data-dir-lock.ts): a socket left here is a dead process's.
    rmSync(socketPath, { force: true });
    // One connection: PGlite is one PostgreSQL session, and a second client could interleave with a transaction.
    const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
    await server.start();
    chmodSync(socketPath, 0o600);
    const opened = db;
    return {
      socketPath,
      image: () => opened.dumpDataDir('none'),
      stop: async () => {
        try {
          await server.stop();
          await opened.close();
        } finally {
          if (!privateDir) rmSync(socketPath, { force: true });
          removePrivateDir();
        }
      },
    };
  } catch (error) {
    await db?.close().catch(() => {});
    removePrivateDir();
    throw error;
  }
}
