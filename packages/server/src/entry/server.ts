import cluster from 'node:cluster';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { connectDatabase, type Database, databaseOptions } from '../db/connect.js';
import { allowedOrigins, type Env } from '../env.js';
import { createApp } from '../http/app.js';
import { answerClientErrors } from '../http/client-errors.js';
import { expressBorn } from '../http/express-born.js';
import { InFlightRequests } from '../http/middleware/lifecycle.js';
import type { Logger } from '../logger.js';
import { FailedAuthLimiter } from '../modules/access/index.js';
import { syncWorkerFromEnv } from '../modules/marketplace/index.js';
import { createMetrics, shareWithPrimary } from '../modules/metrics/index.js';
import { startReservationExpiry } from '../modules/reservations/index.js';
import { startValuationScheduler } from '../modules/valuations/index.js';
import { type AddressPolicy, addressPolicyFromEnv, webhookWorkerFromEnv } from '../modules/webhooks/index.js';
import { checkStatementTimeout, migrateDatabase } from './database.js';
import { startHousekeeping } from './housekeeping.js';
import { ListenError } from './listen-error.js';

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
  /** Runs after migrations, before any request is served (the entry point seeds the demo organization here). */
  beforeServing?: (database: Database) => Promise<void>;
  /** Aborted by SIGTERM or SIGINT during start-up: the start stops with StartAborted rather than finishing. */
  signal?: AbortSignal;
}

/** The start was stopped (SIGTERM or SIGINT) before the server served. */
export class StartAborted extends Error {
  override name = 'StartAborted';
}

/**
 * `work`, or StartAborted as soon as `signal` is aborted, whichever comes first. The work itself is left behind: used
 * for what waits on PostgreSQL over the network (a database that accepts connections but never answers holds a
 * connect for connect_timeout, 30 s), whose open transaction PostgreSQL rolls back when the process's connection ends.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new StartAborted('stopped during start-up'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function listenError(error: unknown, env: Env): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `PORT=${env.PORT}, HOST=${env.HOST}`;
  if (code === 'EADDRINUSE')
    return new ListenError(`Port ${env.PORT} is already in use (${where}). Stop what uses it, or set PORT.`);
  if (code === 'EACCES')
    return new ListenError(
      `Not permitted to listen on port ${env.PORT} (${where}); ports below 1024 usually need privileges. Set PORT.`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ListenError(`Cannot listen on HOST=${env.HOST}: not an address of this machine (${where}). Set HOST.`);
  return error;
}

/**
 * Fails with a ListenError when the port cannot be had, by taking and at once releasing it. A cluster's primary
 * checks this before it migrates and forks: its workers listen through it, and a taken port would otherwise show as
 * every worker dying during start.
 */
export async function ensurePortFree(env: Env): Promise<void> {
  const probe = createNetServer();
  await listen(probe, env);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

async function listen(server: Server | NetServer, env: Env): Promise<void> {
  server.listen(env.PORT, env.HOST);
  try {
    await once(server, 'listening');
  } catch (error) {
    throw listenError(error, env);
  }
}

/** Requests that come before the app is ready wait, and go to the app once it is: none is served half-started. */
function holdRequests(server: Server): (app: RequestListener) => void {
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  const hold = (req: IncomingMessage, res: ServerResponse) => {
    waiting.push([req, res]);
  };
  server.on('request', hold);
  return (app) => {
    server.off('request', hold);
    server.on('request', app);
    for (const [req, res] of waiting.splice(0)) app(req, res);
  };
}

/** After the shutdown timeout, how long a request whose COMMIT is on the wire has to answer before its socket closes. */
const CUT_OFF_GRACE_MS = 2_000;

export async function startServer({ env, logger, beforeServing, signal }: StartOptions): Promise<RunningServer> {
  const webhookPolicy = addressPolicyFromEnv(env);
  const born = expressBorn();
  const server: Server = createServer({ IncomingMessage: born.IncomingMessage, ServerResponse: born.ServerResponse });
  answerClientErrors(server, logger);
  // Keep-alive connections outlive requests; idle ones are closed on shutdown rather than waited for.
  server.keepAliveTimeout = 5_000;
  // The port first: when it is taken, the start fails before the database is opened or the demo organization created
  // (whose key, printed only on the start that creates it, was lost with the start). A cluster's workers listen
  // last, as before: their primary counts a worker as started once it listens, and they never create the demo.
  const listenFirst = !cluster.isWorker;
  const serve = holdRequests(server);
  if (listenFirst) await listen(server, env);
  let database: Database;
  try {
    database = await prepareDatabase(env, logger, beforeServing, signal);
  } catch (error) {
    server.closeAllConnections();
    server.close();
    throw error;
  }

  const background = startBackground(env, database, logger, webhookPolicy);
  const { metrics } = background;
  const inFlight = new InFlightRequests(logger, env.REQUEST_QUEUE_LIMIT);
  const app = createApp({
    sql: metrics ? metrics.instrumentPool(database.sql) : database.sql,
    logger,
    onSyncQueued: () => background.worker?.kick(),
    webhooks: {
      policy: webhookPolicy,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      queued: () => background.webhookWorker?.kick(),
    },
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    requestBodyTimeoutMs: env.REQUEST_BODY_TIMEOUT_MS,
    inFlight,
    cancelStatements: database.kind === 'postgres',
    policy: { maxRequests: env.RATE_LIMIT_MAX_REQUESTS, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
    publicBaseUrl: env.PUBLIC_BASE_URL,
    failedAuth: env.AUTH_FAILURE_LIMIT > 0 ? new FailedAuthLimiter({ limit: env.AUTH_FAILURE_LIMIT }) : undefined,
    metrics: metrics && { metrics, token: env.METRICS_TOKEN },
    corsOrigins: allowedOrigins(env),
  });
  born.adopt(app);
  serve(app);
  if (!listenFirst) await listen(server, env);
  const { port } = server.address() as AddressInfo;
  const close = closerOf(server, inFlight, env.SHUTDOWN_TIMEOUT_MS, async () => {
    await background.stop();
    await database.close();
  });
  return { baseUrl: baseUrlOf(env.HOST, port), port, database, close };
}

/** The base URL of the API on this host and port (a wildcard host shown as localhost). */
export function baseUrlOf(host: string, port: number): string {
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const shown = bracketed === '0.0.0.0' || bracketed === '[::]' ? 'localhost' : bracketed;
  return `http://${shown}:${port}/v1`;
}

/**
 * Opens the database, checks its statement_timeout, migrates it and runs `beforeServing`. A signal stops the start
 * between these steps. On PostgreSQL it also stops the wait for a step (the network's); the embedded database's steps
 * are local and short, and are left to finish (a migration, the demo's seed) so that its files are closed cleanly.
 */
async function prepareDatabase(
  env: Env,
  logger: Logger,
  beforeServing: StartOptions['beforeServing'],
  signal: AbortSignal | undefined,
): Promise<Database> {
  let opened: Database | undefined;
  const stopIfAborted = () => {
    if (signal?.aborted) throw new StartAborted('stopped during start-up');
  };
  try {
    opened = await connectDatabase(
      databaseOptions(env, { poolSize: env.DATABASE_POOL_SIZE, statementTimeoutMs: env.STATEMENT_TIMEOUT_MS }),
    );
    const step = <T>(work: Promise<T>) => (opened?.kind === 'postgres' ? untilAborted(work, signal) : work);
    stopIfAborted();
    await step(checkStatementTimeout(opened, env, logger));
    stopIfAborted();
    const migrations = await step(migrateDatabase(opened, env));
    for (const { version, name } of migrations.applied) logger.info({ version, name }, 'migration applied');
    stopIfAborted();
    await step(beforeServing?.(opened) ?? Promise.resolve());
    stopIfAborted();
    return opened;
  } catch (error) {
    // Aborted on PostgreSQL: the process exits next, which ends the connections (and rolls back what was open);
    // closing them first would wait for the very answers that did not come.
    if (!(error instanceof StartAborted && opened?.kind === 'postgres')) await opened?.close();
    throw error;
  }
}

/**
 * What a server process runs beside its requests: metrics, and with SYNC_WORKER=on the sync and webhook workers and
 * the valuation scheduler and the reservation expiry, and housekeeping; `stop` waits for each.
 */
function startBackground(env: Env, database: Database, logger: Logger, webhookPolicy: AddressPolicy) {
  const metrics =
    env.METRICS === 'on'
      ? createMetrics({ sql: database.sql, poolMax: database.kind === 'postgres' ? env.DATABASE_POOL_SIZE : 1 })
      : undefined;
  if (metrics && cluster.isWorker) shareWithPrimary(metrics.registry);
  const worker = env.SYNC_WORKER === 'on' ? syncWorkerFromEnv(env, database.sql, logger, metrics?.sync) : undefined;
  const webhookWorker =
    env.SYNC_WORKER === 'on' ? webhookWorkerFromEnv(env, database.sql, logger, webhookPolicy) : undefined;
  const valuations =
    env.SYNC_WORKER === 'on'
      ? startValuationScheduler({ sql: database.sql, logger, pollMs: env.VALUATION_POLL_MS })
      : undefined;
  const reservations =
    env.SYNC_WORKER === 'on'
      ? startReservationExpiry({
          sql: database.sql,
          logger,
          pollMs: env.RESERVATION_EXPIRY_INTERVAL_MS,
          notify: { syncQueued: () => worker?.kick(), webhooksQueued: () => webhookWorker?.kick() },
        })
      : undefined;
  const housekeeping = startHousekeeping({
    sql: database.sql,
    logger,
    changesRetentionDays: env.CHANGES_RETENTION_DAYS,
  });
  return {
    metrics,
    worker,
    webhookWorker,
    stop: async () => {
      await Promise.all([worker?.stop(), webhookWorker?.stop(), valuations?.stop(), reservations?.stop()]);
      await housekeeping.stop();
    },
  };
}

/**
 * The server's close, once however often it is called: stops accepting connections, lets in-flight requests finish
 * (up to `shutdownTimeoutMs`), then runs `after` (the background's stop, the pool's close).
 */
function closerOf(
  server: Server,
  inFlight: InFlightRequests,
  shutdownTimeoutMs: number,
  after: () => Promise<void>,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Every response from now on says Connection: close, so no keep-alive client sends into a closing socket.
      inFlight.startDraining();
      server.closeIdleConnections();
      // A connection whose request finishes during the drain goes idle too: close it then, not at keepAliveTimeout.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      // At the timeout, what still runs is rolled back and answered 503 (logged), never committed behind a reset
      // socket; a request whose COMMIT is on the wire gets a moment to answer, then every connection is closed.
      const timer = setTimeout(() => {
        inFlight.cutOff(CUT_OFF_GRACE_MS).finally(() => server.closeAllConnections());
      }, shutdownTimeoutMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await after();
    })();
    return closing;
  };
}
