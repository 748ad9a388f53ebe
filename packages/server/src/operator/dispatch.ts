import { setTimeout as sleep } from 'node:timers/promises';
import { DataDirBusyError, type DataDirLock, lockDataDir, makeDataDir } from '../db/data-dir-lock.js';
import { explainingFailures, migrationTarget, poolTarget } from '../db/unavailable.js';
import type { Env } from '../env.js';
import { prepareOperatorCommand } from './run.js';
import { operatorSocketPath, sendOperatorCommand } from './socket.js';
import type { CommandOutput } from './spec.js';

/** How long an operator command waits for an embedded database that another process holds to become reachable. */
const BUSY_WAIT_MS = 10_000;

/**
 * Runs an operator command where the data is: on DATABASE_URL directly; on the embedded database through a running
 * server's operator socket, or, when no server runs, by opening the database itself.
 */
export async function runOperatorCommand(argv: string[], env: Env): Promise<CommandOutput> {
  const prepared = prepareOperatorCommand(argv);
  if (prepared.kind === 'done') return prepared.output;
  // The database drivers (PGlite's WebAssembly, postgres.js) are loaded only when this process opens the database,
  // not when a running server's socket takes the command.
  const connection = () => import('../db/connect.js');
  if (env.DATABASE_URL) {
    const { connectDatabase, databaseOptions } = await connection();
    const { ensureMigrated } = await import('../db/migrate.js');
    const database = await connectDatabase(databaseOptions(env, { poolSize: 1, statementTimeoutMs: 0 }));
    const pool = poolTarget(env.DATABASE_URL);
    try {
      // `migrate` over DATABASE_DIRECT_URL when set, as every migration; the others need no session of their own, and
      // a schema this release's migrations have not reached yet.
      if (prepared.name === 'migrate')
        return await explainingFailures(migrationTarget(env.DATABASE_URL, env.DATABASE_DIRECT_URL), () =>
          database.direct(prepared.run),
        );
      return await explainingFailures(pool, async () => {
        await ensureMigrated(database.sql, pool);
        return prepared.run(database.sql);
      });
    } finally {
      await database.close();
    }
  }
  const dataDir = env.COINVENTORY_DATA_DIR;
  makeDataDir(dataDir);
  const socketPath = operatorSocketPath(dataDir);
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const viaServer = await sendOperatorCommand(socketPath, prepared.argv);
    if (viaServer) return viaServer;
    let lock: DataDirLock;
    try {
      lock = lockDataDir(dataDir);
    } catch (error) {
      // Held, but nothing answers yet: a server still starting, or another operator command. Wait a little.
      if (!(error instanceof DataDirBusyError) || Date.now() > deadline) throw error;
      await sleep(250);
      continue;
    }
    try {
      const database = await (await connection()).connectDatabase({ dataDir, poolSize: 1, statementTimeoutMs: 0 });
      try {
        if (prepared.name !== 'migrate') await (await import('../db/migrate.js')).migrate(database.sql);
        return await prepared.run(database.sql);
      } finally {
        await database.close();
      }
    } finally {
      lock.release();
    }
  }
}
