import cluster, { type Worker } from 'node:cluster';
import { connectDatabase, databaseOptions } from '../db/connect.js';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';
import { serveClusterMetrics } from '../modules/metrics/index.js';
import { migrateDatabase } from './database.js';
import { baseUrlOf, ensurePortFree } from './server.js';

/**
 * Several server processes on one port (WEB_CONCURRENCY > 1), with node:cluster: the primary applies the
 * migrations once, forks the workers and hands each incoming connection to one of them in turn; every worker is
 * a complete server (its own database pool of DATABASE_POOL_SIZE and, with SYNC_WORKER=on, its own sync worker).
 * Nothing is shared in memory between them, and nothing needs to be: keys are verified and counted, and sync jobs
 * claimed, in PostgreSQL, which is why several workers need DATABASE_URL (env.ts refuses them on the embedded
 * database, which is one process's files).
 */

/** How long the primary waits for a worker to start listening before giving up on the start. */
const START_TIMEOUT_MS = 60_000;
/** Workers that die while serving are replaced, but not in a loop: more deaths than this in a minute stop it all. */
const MAX_RESTARTS_PER_MINUTE = 5;

export interface ClusterPrimary {
  baseUrl: string;
}

/**
 * Runs in the primary process: migrates, forks `env.WEB_CONCURRENCY` workers and waits until every one listens.
 * SIGTERM and SIGINT are passed on to the workers, which finish their in-flight requests; the primary exits when
 * they have (1 if any failed to stop cleanly). A worker that dies while serving is replaced, up to
 * MAX_RESTARTS_PER_MINUTE; a worker that dies before it listens fails the start.
 */
export async function startPrimary(env: Env, logger: Logger): Promise<ClusterPrimary> {
  const primary: Primary = { stopping: false, listened: new WeakSet<Worker>() };
  cluster.on('listening', (worker) => primary.listened.add(worker));
  if (env.METRICS === 'on') serveClusterMetrics();
  const shutdown = shutdownOf(primary, logger);
  // Before anything starts, so a signal during start-up stops the workers too instead of killing the primary.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // A taken port fails the start in one line, before the migration, as a single process does.
  await ensurePortFree(env);
  await migrateOnce(env, logger);
  if (primary.stopping) {
    logger.info('stopped');
    process.exit(0);
  }
  const port = await forkWorkers(primary, env.WEB_CONCURRENCY);
  replaceDeadWorkers(primary, logger, shutdown);

  const baseUrl = baseUrlOf(env.HOST, port);
  logger.info({ baseUrl, database: 'postgres', workers: env.WEB_CONCURRENCY }, 'listening');
  return { baseUrl };
}

/** The primary's state, shared by its steps. */
interface Primary {
  stopping: boolean;
  /**
   * Workers that have listened. A worker takes its signals before it starts listening, so one that SIGTERM ended
   * before it listened was still loading, with nothing in flight to lose.
   */
  listened: WeakSet<Worker>;
}

/** Stops every worker (each finishes its in-flight requests), then the primary: 1 if any failed to stop cleanly. */
function shutdownOf(primary: Primary, logger: Logger): (reason: string, exitCode?: number) => void {
  return (reason, exitCode = 0) => {
    if (primary.stopping) return;
    primary.stopping = true;
    logger.info({ reason }, 'shutting down: workers finish their in-flight requests');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    let failed = exitCode !== 0;
    let left = workers.length;
    // Nothing forked yet: exit now, even while migrating (or connecting to a database that does not answer): each
    // migration is one transaction, which PostgreSQL rolls back when the process's connection ends.
    if (left === 0) {
      logger.info('stopped before the start completed');
      process.exit(exitCode);
    }
    for (const worker of workers) {
      worker.once('exit', (code, signal) => {
        const stoppedUnstarted = signal === 'SIGTERM' && !primary.listened.has(worker);
        if (code !== 0 && !stoppedUnstarted) {
          failed = true;
          logger.error({ pid: worker.process.pid, code, signal }, 'a worker did not stop cleanly');
        }
        left -= 1;
        if (left > 0) return;
        logger.info('stopped');
        process.exit(failed ? 1 : 0);
      });
      // The signal itself, not worker.kill(), which first cuts the worker's IPC channel: a cluster worker whose
      // channel is cut exits at once, without finishing its in-flight requests.
      worker.process.kill('SIGTERM');
    }
  };
}

/** Applies the migrations once, here, rather than in every worker at the same moment (they would queue on its lock). */
async function migrateOnce(env: Env, logger: Logger): Promise<void> {
  const database = await connectDatabase(databaseOptions(env, { poolSize: 1, statementTimeoutMs: 0 }));
  try {
    const migrations = await migrateDatabase(database, env);
    for (const { version, name } of migrations.applied) logger.info({ version, name }, 'migration applied');
  } finally {
    await database.close();
  }
}

/** Forks `count` workers and waits until every one listens: the port they listen on. */
function forkWorkers(primary: Primary, count: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const waiting = new Set<Worker>();
    let listeningPort = 0;
    const timer = setTimeout(() => fail(new Error('workers did not start listening in time')), START_TIMEOUT_MS);
    const onListening = (worker: Worker, address: { port: number }) => {
      // Stopping already: shutdown ends the process, and "listening" would be a false report.
      if (primary.stopping || !waiting.delete(worker)) return;
      listeningPort = address.port;
      if (waiting.size > 0) return;
      cleanup();
      resolve(listeningPort);
    };
    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      // During a shutdown, shutdown accounts for every exit and ends the process.
      if (primary.stopping || !waiting.has(worker)) return;
      fail(new Error(`worker ${worker.process.pid} exited during start (${signal ?? `code ${code}`})`));
    };
    function cleanup() {
      clearTimeout(timer);
      cluster.off('listening', onListening);
      cluster.off('exit', onExit);
    }
    function fail(error: Error) {
      cleanup();
      primary.stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      reject(error);
    }
    cluster.on('listening', onListening);
    cluster.on('exit', onExit);
    for (let i = 0; i < count; i++) waiting.add(cluster.fork());
  });
}

/** A worker that dies while serving is replaced, but not in a loop: past MAX_RESTARTS_PER_MINUTE, all stops. */
function replaceDeadWorkers(primary: Primary, logger: Logger, shutdown: (reason: string, exitCode?: number) => void) {
  const restarts: number[] = [];
  cluster.on('exit', (worker, code, signal) => {
    if (primary.stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    const now = Date.now();
    restarts.push(now);
    while ((restarts[0] ?? now) < now - 60_000) restarts.shift();
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      logger.fatal(`more than ${MAX_RESTARTS_PER_MINUTE} workers died within a minute: stopping`);
      shutdown('worker failures', 1);
      return;
    }
    cluster.fork();
  });
}

/** In a process forked by startPrimary: what its log lines carry to tell the workers apart; otherwise null. */
export function clusterWorker(): { worker: number; pid: number } | null {
  return cluster.isWorker && cluster.worker ? { worker: cluster.worker.id, pid: process.pid } : null;
}
