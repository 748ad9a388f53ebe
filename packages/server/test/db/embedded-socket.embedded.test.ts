import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.js';
import { EMBEDDED_SOCKET_NAME, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { removeTempDirs, start, stop, tempDir } from '../support/binary.js';
import { canListListeners, tcpListeners } from '../support/listeners.js';

afterAll(removeTempDirs);

const mode = (path: string) => statSync(path).mode & 0o777;

/** What another OS user (nobody) gets when it connects to `path`: 'connected', or the error code. */
function connectAsNobody(path: string): string {
  const script = `const s = require('node:net').createConnection(process.argv[1]);
    s.on('connect', () => { console.log('connected'); s.destroy(); });
    s.on('error', (e) => console.log(e.code));`;
  const result = spawnSync(process.execPath, ['-e', script, path], { uid: 65534, gid: 65534, encoding: 'utf8' });
  return result.stdout.trim() || result.stderr.trim();
}

/** What a second client of the database socket gets for a query: its rows, or the error. */
async function secondClient(path: string): Promise<unknown> {
  const sql = postgres({
    path,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    connect_timeout: 5,
    onnotice: () => {},
  });
  try {
    return await sql`SELECT 1 AS one`;
  } catch (error) {
    return error;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

describe('the embedded database is reachable only by the server', () => {
  it.skipIf(!canListListeners())(
    'the running server listens on no TCP port but the API, and serves the database on a 0600 socket in its 0700 data directory',
    async () => {
      const dataDir = join(tempDir(), 'data');
      const server = await start({ COINVENTORY_DATA_DIR: dataDir });
      try {
        const apiPort = Number(new URL(server.baseUrl).port);
        expect(tcpListeners(server.child.pid ?? 0)).toEqual([apiPort]);

        const socketPath = join(dataDir, EMBEDDED_SOCKET_NAME);
        expect(statSync(socketPath).isSocket()).toBe(true);
        expect(mode(socketPath)).toBe(0o600);
        expect(mode(dataDir)).toBe(0o700);
        // The server holds the database's one connection: even this OS user gets no second one.
        expect(await secondClient(socketPath)).toBeInstanceOf(Error);
        if (process.getuid?.() === 0) expect(connectAsNobody(socketPath)).toBe('EACCES');

        // And the server still has it.
        const ready = await fetch(`${new URL(server.baseUrl).origin}/readyz`);
        expect(ready.status).toBe(200);
      } finally {
        expect(await stop(server)).toBe(0);
      }
      expect(existsSync(join(dataDir, EMBEDDED_SOCKET_NAME))).toBe(false);
    },
  );

  it.skipIf(!canListListeners())(
    'an in-memory database opens no TCP port; its socket is in a private directory removed on close',
    async () => {
      const before = tcpListeners(process.pid);
      const embedded = await startEmbeddedPostgres('memory://');
      const socketDir = dirname(embedded.socketPath);
      try {
        expect(tcpListeners(process.pid)).toEqual(before);
        expect(mode(socketDir)).toBe(0o700);
        expect(mode(embedded.socketPath)).toBe(0o600);
      } finally {
        await embedded.stop();
      }
      expect(existsSync(socketDir)).toBe(false);
    },
  );

  it('keeps its one connection instead of replacing it every 30 to 60 minutes', async () => {
    const database = await connectDatabase({ dataDir: 'memory://', poolSize: 10, statementTimeoutMs: 0 });
    try {
      const [row] = await database.sql<{ one: number }[]>`SELECT 1 AS one`;
      expect(row?.one).toBe(1);
      expect(database.sql.options).toMatchObject({ max: 1, max_lifetime: null, idle_timeout: 0 });
    } finally {
      await database.close();
    }
  });

  it('a data directory too deep for a socket path gets its socket in a private directory', async () => {
    const dataDir = join(tempDir(), 'a-data-directory-whose-path'.repeat(4));
    const embedded = await startEmbeddedPostgres(dataDir);
    const socketDir = dirname(embedded.socketPath);
    try {
      expect(socketDir).not.toBe(dataDir);
      expect(mode(socketDir)).toBe(0o700);
    } finally {
      await embedded.stop();
    }
    expect(existsSync(socketDir)).toBe(false);
  });
});
