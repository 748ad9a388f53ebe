import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectDatabase, type Database } from './db/connect.js';
import { migrate } from './db/migrate.js';
import type { Env } from './env.js';
import { createApp } from './http/app.js';
import { answerClientErrors } from './http/client-errors.js';
import type { Logger } from './logger.js';
import { syncWorkerFromEnv } from './sync/from-env.js';

export interface RunningServer {
  /** The base URL of the API, ending in /v1. */
  baseUrl: string;
  port: number;
  database: Database;
  /** Stops accepting connections, lets in-flight requests finish (up to the shutdown timeout), then closes the pool. */
  close(): Promise<void>;
}

export interface StartOptions {
  env: Env;
  logger: Logger;
  /** Runs after migrations, before the server listens (the entry point seeds the demo workspace here). */
  beforeListen?: (database: Database) => Promise<void>;
}

export async function startServer({ env, logger, beforeListen }: StartOptions): Promise<RunningServer> {
  const database = await connectDatabase({
    url: env.DATABASE_URL,
    dataDir: env.COINVENTORY_DATA_DIR,
    poolSize: env.DATABASE_POOL_SIZE,
    statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
  });
  try {
    const migrations = await migrate(database.sql);
    for (const { version, name } of migrations.applied) logger.info({ version, name }, 'migration applied');
    await beforeListen?.(database);
  } catch (error) {
    await database.close();
    throw error;
  }

  const worker = env.SYNC_WORKER === 'on' ? syncWorkerFromEnv(env, database.sql, logger) : undefined;
  const app = createApp({
    sql: database.sql,
    logger,
    onSyncQueued: () => worker?.kick(),
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    policy: { maxRequests: env.RATE_LIMIT_MAX_REQUESTS, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
    publicBaseUrl: env.PUBLIC_BASE_URL,
  });
  const server: Server = createServer(app);
  answerClientErrors(server, logger);
  // Keep-alive connections outlive requests; idle ones are closed on shutdown rather than waited for.
  server.keepAliveTimeout = 5_000;
  server.listen(env.PORT, env.HOST);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
  const baseUrl = `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${port}/v1`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A connection whose request finishes during the drain goes idle too: close it then, not at keepAliveTimeout.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => server.closeAllConnections(), env.SHUTDOWN_TIMEOUT_MS);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await worker?.stop();
      await database.close();
    })();
    return closing;
  };
  return { baseUrl, port, database, close };
}
