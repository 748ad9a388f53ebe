import { lockEmbeddedDataDir } from '../db/data-dir-lock.js';
import { type DemoWorkspace, seedDemoWorkspace } from '../demo/index.js';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';
import { type AdminSocket, adminSocketPath, serveAdminSocket } from '../operator/index.js';
import { clusterWorker, startPrimary } from './cluster.js';
import { startServer } from './server.js';

/**
 * `coinventory-server start`: the HTTP server (or a cluster's primary), the admin socket on an embedded database,
 * and the demo workspace on a brand-new one; stops cleanly on SIGTERM or SIGINT.
 */
export async function start(env: Env, rootLogger: Logger) {
  const worker = clusterWorker();
  if (env.WEB_CONCURRENCY > 1 && !worker) {
    // The primary only forks and supervises; the workers below serve.
    await startPrimary(env, rootLogger);
    return;
  }
  const logger = worker ? rootLogger.child(worker) : rootLogger;
  // Installed before anything starts: a signal that comes while the server is still starting (a cluster's primary
  // passes one on the moment it gets it) stops the server once it has started, rather than killing it outright.
  let requested: string | undefined;
  let stop = (signal: string) => {
    if (requested) return;
    requested = signal;
    logger.info({ signal }, 'stopping as soon as the server has started');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const lock = lockEmbeddedDataDir(env.DATABASE_URL, env.COINVENTORY_DATA_DIR);
  let demo: DemoWorkspace | undefined;
  let adminSocket: AdminSocket | undefined;
  try {
    const server = await startServer({
      env,
      logger,
      beforeServing: async (database) => {
        // Only a brand-new embedded database gets the demo workspace; a real PostgreSQL is the operator's.
        if (database.kind !== 'embedded') return;
        const [existing] = await database.sql`SELECT 1 FROM organizations LIMIT 1`;
        if (existing) return;
        demo = await seedDemoWorkspace(database.sql);
        logger.info({ organizationId: demo.organizationId, counts: demo.counts }, 'demo workspace created');
      },
    });
    if (lock) {
      adminSocket = await serveAdminSocket(adminSocketPath(env.COINVENTORY_DATA_DIR), server.database.sql, logger);
    }
    if (demo) printDemoKey(server.baseUrl, demo.slug, demo.key.key);
    // In a cluster the primary says "listening" once every worker is; each worker only reports itself.
    logger.info({ baseUrl: server.baseUrl, database: server.database.kind }, worker ? 'worker listening' : 'listening');

    let stopping = false;
    stop = (signal: string) => {
      // A second signal while draining changes nothing: a process group's SIGTERM (Ctrl-C, systemd) reaches a
      // cluster's worker and then its primary passes it on too.
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down: finishing in-flight requests');
      (async () => {
        await adminSocket?.close();
        await server.close();
        lock?.release();
      })()
        .then(() => {
          logger.info('stopped');
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    };
    if (requested) stop(requested);
  } catch (error) {
    await adminSocket?.close();
    lock?.release();
    throw error;
  }
}

/**
 * The demo key, once, on stderr. On a terminal it stands out from the log lines around it (bold, the key in yellow,
 * ruled off); piped, it is plain text that a script can read.
 */
function printDemoKey(baseUrl: string, slug: string, key: string) {
  const colour = process.stderr.isTTY === true && !process.env.NO_COLOR;
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const rule = colour ? [paint('2', `  ${'─'.repeat(72)}`)] : [];
  process.stderr.write(
    [
      '',
      ...rule,
      paint('1', `  Demo workspace "${slug}" created. Its API key (read and write), shown this once:`),
      '',
      `    ${paint('1;33', key)}`,
      '',
      '  Try it:',
      '',
      `    curl -H "Authorization: Bearer ${key}" ${baseUrl}/me`,
      ...rule,
      '',
      '',
    ].join('\n'),
  );
}
