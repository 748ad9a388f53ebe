import type { Database } from '../db/connect.js';
import { lockEmbeddedDataDir } from '../db/data-dir-lock.js';
import {
  demoKeyPath,
  forgetDemoKey,
  keepDemoKey,
  keptDemoKey,
  seedDemoOrganization,
  unusedDemoKeySlug,
} from '../demo/index.js';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';
import { type OperatorSocket, operatorSocketPath, serveOperatorSocket } from '../operator/index.js';
import { clusterWorker, startPrimary } from './cluster.js';
import { warnIfMetricsExposed } from './metrics-exposure.js';
import { type RunningServer, StartAborted, startServer } from './server.js';

/** How often a server whose demo key nobody has used yet checks whether someone has, to remove the kept copy. */
const DEMO_KEY_CHECK_MS = 60_000;

interface DemoKey {
  slug: string;
  key: string;
  /** Created by this start (otherwise kept from an earlier one and not used since). */
  created: boolean;
  /** Kept in the data directory until used (false only when writing the file failed). */
  kept: boolean;
}

/**
 * `coinventory-server start`: the HTTP server (or a cluster's primary), the operator socket on an embedded database,
 * and the demo organization on a brand-new one; stops cleanly on SIGTERM or SIGINT.
 */
export async function start(env: Env, rootLogger: Logger) {
  const worker = clusterWorker();
  // Once per start: by the process that starts, not by each of a cluster's workers.
  if (!worker) warnIfMetricsExposed(env, rootLogger, env.PORT);
  if (env.WEB_CONCURRENCY > 1 && !worker) {
    // The primary only forks and supervises; the workers below serve.
    await startPrimary(env, rootLogger);
    return;
  }
  const logger = worker ? rootLogger.child(worker) : rootLogger;
  // The demo key goes to stderr; a stderr whose reader has gone (EPIPE) must not end the server: the key is kept in
  // the data directory and printed again at the next start (demo/key-file.ts).
  process.stderr.on('error', () => {});
  const signals = stopSignals(logger);
  const dataDir = env.COINVENTORY_DATA_DIR;
  const lock = lockEmbeddedDataDir(env.DATABASE_URL, dataDir);
  let demo: DemoKey | undefined;
  let operatorSocket: OperatorSocket | undefined;
  try {
    const server = await startServer({
      env,
      logger,
      signal: signals.starting,
      beforeServing: async (database) => {
        demo = await demoKeyAtStart(database, dataDir, logger);
      },
    });
    if (lock) {
      operatorSocket = await serveOperatorSocket(operatorSocketPath(dataDir), server.database.sql, logger);
    }
    // Printed once the server listens and serves: a start that fails after creating the demo prints nothing, and
    // the next one prints the kept key.
    const demoKeyCheck = demo && showDemoKey(server, demo, dataDir, logger);
    // In a cluster the primary says "listening" once every worker is; each worker only reports itself.
    logger.info({ baseUrl: server.baseUrl, database: server.database.kind }, worker ? 'worker listening' : 'listening');
    signals.serving(
      stopServing(logger, async () => {
        clearInterval(demoKeyCheck);
        await operatorSocket?.close();
        await server.close();
        lock?.release();
      }),
    );
  } catch (error) {
    await operatorSocket?.close();
    lock?.release();
    if (error instanceof StartAborted) {
      // Exits now: on PostgreSQL a connect or query left waiting would otherwise hold the process until it times out.
      logger.info('stopped before the start completed');
      process.exit(0);
    }
    throw error;
  }
}

/**
 * SIGTERM and SIGINT, installed before anything starts: a signal that comes while the server is still starting (a
 * cluster's primary passes one on the moment it gets it) aborts `starting`, which stops the start where it is
 * (server.ts: the step under way on PostgreSQL, after the step under way on the embedded database), and the process
 * exits. Once the server serves, a signal runs what `serving` is given (at once for one that came during the start).
 */
function stopSignals(logger: Logger): { starting: AbortSignal; serving(stop: (signal: string) => void): void } {
  let requested: string | undefined;
  const starting = new AbortController();
  let stop = (signal: string) => {
    if (requested) return;
    requested = signal;
    logger.info({ signal }, 'stopping during start-up');
    starting.abort();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return {
    starting: starting.signal,
    serving: (then) => {
      stop = then;
      if (requested) then(requested);
    },
  };
}

/** A serving server's stop: `close` lets in-flight requests finish, then the process exits (1 when that failed). */
function stopServing(logger: Logger, close: () => Promise<void>): (signal: string) => void {
  let stopping = false;
  return (signal) => {
    // A second signal while draining changes nothing: a process group's SIGTERM (Ctrl-C, systemd) reaches a
    // cluster's worker and then its primary passes it on too.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    close()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
}

/**
 * The demo key to show at this start: a brand-new embedded database gets the demo organization, whose key is kept in
 * the data directory until used; a later start shows the kept key while it is still unused. A real PostgreSQL is the
 * operator's: no demo.
 */
async function demoKeyAtStart(database: Database, dataDir: string, logger: Logger): Promise<DemoKey | undefined> {
  if (database.kind !== 'embedded') return undefined;
  const [existing] = await database.sql`SELECT 1 FROM organizations LIMIT 1`;
  if (!existing) {
    const created = await seedDemoOrganization(database.sql);
    let kept = true;
    try {
      keepDemoKey(dataDir, created.key.key);
    } catch (error) {
      // Failing the start now would lose the key for good: it is still printed below, this once.
      kept = false;
      logger.warn({ err: error }, 'could not keep the demo key in the data directory: it is printed this once');
    }
    logger.info({ organizationId: created.organizationId, counts: created.counts }, 'demo organization created');
    return { slug: created.slug, key: created.key.key, created: true, kept };
  }
  const kept = keptDemoKey(dataDir);
  if (kept === undefined) return undefined;
  const slug = await unusedDemoKeySlug(database.sql, kept);
  if (slug === undefined) {
    forgetDemoKey(dataDir);
    return undefined;
  }
  return { slug, key: kept, created: false, kept: true };
}

/**
 * Prints the demo key, and checks now and then whether it has been used, to remove its kept copy then; returns the
 * check's timer.
 */
function showDemoKey(server: RunningServer, demo: DemoKey, dataDir: string, logger: Logger): NodeJS.Timeout {
  printDemoKey(server.baseUrl, demo, demoKeyPath(dataDir));
  // One async step whose every failure (the lookup, or removing the file) lands in the one catch below: a throw in a
  // .then success handler would be an unhandled rejection, which ends the process.
  const checkDemoKey = async () => {
    if ((await unusedDemoKeySlug(server.database.sql, demo.key)) !== undefined) return;
    forgetDemoKey(dataDir);
    clearInterval(timer);
  };
  const timer = setInterval(() => {
    checkDemoKey().catch((error: unknown) =>
      logger.warn({ err: error }, 'could not check whether the demo key has been used, or remove its kept copy'),
    );
  }, DEMO_KEY_CHECK_MS).unref();
  return timer;
}

/**
 * The demo key on stderr, at every start until it is used. On a terminal it stands out from the log lines around it
 * (bold, the key in yellow, ruled off); piped, it is plain text that a script can read.
 */
function printDemoKey(baseUrl: string, demo: DemoKey, keptIn: string) {
  const colour = process.stderr.isTTY === true && !process.env.NO_COLOR;
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const rule = colour ? [paint('2', `  ${'─'.repeat(72)}`)] : [];
  const { slug, key } = demo;
  const head = demo.created
    ? `Demo organization "${slug}" created. Its API key (read and write):`
    : `Demo organization "${slug}": its API key (read and write), not used yet:`;
  process.stderr.write(
    [
      '',
      ...rule,
      paint('1', `  ${head}`),
      '',
      `    ${paint('1;33', key)}`,
      '',
      '  Try it:',
      '',
      `    curl -H "Authorization: Bearer ${key}" ${baseUrl}/me`,
      ...(demo.kept
        ? [
            '',
            `  Shown at every start until the key is first used; until then it is also kept in ${keptIn}`,
            '  (readable by you only), which is removed once it has been used.',
          ]
        : ['', '  Shown this once: store it now.']),
      ...rule,
      '',
      '',
    ].join('\n'),
  );
}
