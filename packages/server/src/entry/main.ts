#!/usr/bin/env node
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase } from '../db/connect.js';
import { DataDirBusyError, type DataDirLock, lockDataDir } from '../db/data-dir-lock.js';
import { migrate } from '../db/migrate.js';
import { type DemoWorkspace, seedDemoWorkspace } from '../demo/seed.js';
import { ConfigError, describeSettings, type Env, loadEnv } from '../env.js';
import { createLogger, type Logger } from '../logger.js';
import { syncWorkerFromEnv } from '../modules/marketplace/from-env.js';
import {
  type AdminSocket,
  adminSocketPath,
  COMMANDS,
  type CommandOutput,
  EXIT,
  isAdminCommand,
  prepareAdminCommand,
  sendAdminCommand,
  serveAdminSocket,
} from '../operator/index.js';
import { clusterWorker, startPrimary } from './cluster.js';
import { ListenError, startServer } from './server.js';

/** The environment variables, one per line with its default, wrapped under the name. */
function configurationHelp(): string {
  return describeSettings()
    .map(({ name, defaultValue, description }) => {
      const head = `  ${name}${defaultValue === undefined ? '' : ` (${defaultValue === '' ? 'empty' : defaultValue})`}`;
      return `${head}\n${wrap(description, 6, 80)}`;
    })
    .join('\n');
}

/** Words of `text` on lines of at most `width` columns, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}

const USAGE = `Usage: coinventory-server [command] [options]

Commands:
  start              Start the HTTP server (the default). Applies pending migrations first. On an empty
                     embedded database it also creates a demo workspace and prints an API key once.
  sync-worker        Run only the marketplace sync worker (for servers started with SYNC_WORKER=off).
${COMMANDS.map((c) => `  ${c.name.padEnd(17)}  ${c.summary}`).join('\n')}

Run "coinventory-server <command> --help" for a command's options. The admin commands take --json.

Admin commands work against DATABASE_URL, or the embedded database in COINVENTORY_DATA_DIR, also while a
server is running on it (they go through the server's admin socket).

Exit codes: 0 ok, 1 failure, 2 usage or invalid input, 3 not found, 4 already exists, 5 refused by a rule.

Configuration (environment variables, with their defaults):
${configurationHelp()}`;

const START_USAGE = `Usage: coinventory-server start

Starts the HTTP server; also what "coinventory-server" without a command does. It takes no options: it is
configured by the environment (listed by "coinventory-server --help").

It takes its port (PORT on HOST) first: if that fails (in use, not permitted) it says so in one line and
exits 1 before opening the database. Pending migrations are applied next. On an empty embedded database (no
DATABASE_URL) it creates a demo workspace and prints its API key once, on stderr. It logs JSON lines on
stdout, "listening" once it serves requests (any sent before wait until then). SIGTERM or SIGINT: it stops
accepting, finishes in-flight requests (up to SHUTDOWN_TIMEOUT_MS) and exits 0. WEB_CONCURRENCY above 1 runs
that many server processes on the port (needs DATABASE_URL).

Exit codes: 0 stopped cleanly, 1 failure, 2 invalid configuration.`;

const SYNC_WORKER_USAGE = `Usage: coinventory-server sync-worker

Runs only the marketplace sync worker, for servers started with SYNC_WORKER=off: it delivers the queued
listing changes to the marketplace, with the SYNC_* and MARKETPLACE_* settings (listed by
"coinventory-server --help"). It takes no options. Run as many as you like against one DATABASE_URL: a
listing is delivered by one worker at a time. On the embedded database it needs the data directory to
itself, so it cannot run beside a server there. SIGTERM or SIGINT: it finishes its deliveries and exits 0.

Exit codes: 0 stopped cleanly, 1 failure, 2 invalid configuration.`;

class UsageError extends Error {
  /** The usage shown after the message: the command's own when it has one. */
  constructor(
    message: string,
    readonly usage = USAGE,
  ) {
    super(message);
  }
}

async function start(env: Env, rootLogger: Logger) {
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
  let lock: DataDirLock | undefined;
  if (!env.DATABASE_URL) {
    mkdirSync(env.COINVENTORY_DATA_DIR, { recursive: true });
    lock = lockDataDir(env.COINVENTORY_DATA_DIR);
  }
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

/** The marketplace sync worker on its own, for operators who run it apart from the HTTP servers. */
async function syncWorker(env: Env, logger: Logger) {
  let lock: DataDirLock | undefined;
  if (!env.DATABASE_URL) {
    mkdirSync(env.COINVENTORY_DATA_DIR, { recursive: true });
    lock = lockDataDir(env.COINVENTORY_DATA_DIR);
  }
  const database = await connectDatabase({
    url: env.DATABASE_URL,
    dataDir: env.COINVENTORY_DATA_DIR,
    poolSize: 2,
    statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
  });
  await migrate(database.sql);
  const worker = syncWorkerFromEnv(env, database.sql, logger);
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'sync worker stopping');
    (async () => {
      await worker.stop();
      await database.close();
      lock?.release();
    })()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

function printDemoKey(baseUrl: string, slug: string, key: string) {
  process.stderr.write(
    [
      '',
      `  Demo workspace "${slug}" created. Its API key (read and write), shown this once:`,
      '',
      `    ${key}`,
      '',
      '  Try it:',
      '',
      `    curl -H "Authorization: Bearer ${key}" ${baseUrl}/me`,
      '',
      '',
    ].join('\n'),
  );
}

/** How long an admin command waits for an embedded database that another process holds to become reachable. */
const BUSY_WAIT_MS = 10_000;

/**
 * Runs an admin command where the data is: on DATABASE_URL directly; on the embedded database through a running
 * server's admin socket, or, when no server runs, by opening the database itself.
 */
async function runAdmin(argv: string[], env: Env): Promise<CommandOutput> {
  const prepared = prepareAdminCommand(argv);
  if (prepared.kind === 'done') return prepared.output;
  if (env.DATABASE_URL) {
    const database = await connectDatabase({ url: env.DATABASE_URL, dataDir: '', poolSize: 1, statementTimeoutMs: 0 });
    try {
      return await prepared.run(database.sql);
    } finally {
      await database.close();
    }
  }
  const dataDir = env.COINVENTORY_DATA_DIR;
  mkdirSync(dataDir, { recursive: true });
  const socketPath = adminSocketPath(dataDir);
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const viaServer = await sendAdminCommand(socketPath, argv);
    if (viaServer) return viaServer;
    let lock: DataDirLock;
    try {
      lock = lockDataDir(dataDir);
    } catch (error) {
      // Held, but nothing answers yet: a server still starting, or another admin command. Wait a little.
      if (!(error instanceof DataDirBusyError) || Date.now() > deadline) throw error;
      await sleep(250);
      continue;
    }
    try {
      const database = await connectDatabase({ dataDir, poolSize: 1, statementTimeoutMs: 0 });
      try {
        if (prepared.name !== 'migrate') await migrate(database.sql);
        return await prepared.run(database.sql);
      } finally {
        await database.close();
      }
    } finally {
      lock.release();
    }
  }
}

async function main(argv: string[]): Promise<number | undefined> {
  const [first = 'start', ...rest] = argv;
  if (first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (first === 'start') {
    if (rest.includes('-h') || rest.includes('--help')) {
      process.stdout.write(`${START_USAGE}\n`);
      return EXIT.ok;
    }
    if (rest.length > 0) throw new UsageError(`start takes no arguments (got "${rest.join(' ')}").`, START_USAGE);
    const env = loadEnv();
    await start(env, createLogger(env.LOG_LEVEL));
    return undefined;
  }
  if (first === 'sync-worker') {
    if (rest.includes('-h') || rest.includes('--help')) {
      process.stdout.write(`${SYNC_WORKER_USAGE}\n`);
      return EXIT.ok;
    }
    if (rest.length > 0)
      throw new UsageError(`sync-worker takes no arguments (got "${rest.join(' ')}").`, SYNC_WORKER_USAGE);
    const env = loadEnv();
    await syncWorker(env, createLogger(env.LOG_LEVEL));
    return undefined;
  }
  if (!isAdminCommand(argv)) throw new UsageError(`Unknown command "${argv.join(' ')}".`);
  const output = await runAdmin(argv, loadEnv());
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  return output.exitCode;
}

main(process.argv.slice(2))
  .then((code) => {
    if (code !== undefined) process.exitCode = code;
  })
  .catch((error: unknown) => {
    // A port in use or refused: one line naming the setting, no stack trace (nothing was created).
    if (error instanceof ListenError) {
      process.stderr.write(`coinventory-server: ${error.message}\n`);
      process.exit(EXIT.failure);
    }
    if (error instanceof ConfigError || error instanceof UsageError || error instanceof DataDirBusyError) {
      const hint =
        error instanceof UsageError
          ? `\n\n${error.usage}`
          : error instanceof DataDirBusyError
            ? ' Stop that process, or point COINVENTORY_DATA_DIR elsewhere.'
            : '';
      process.stderr.write(`coinventory-server: ${error.message}${hint}\n`);
      process.exit(error instanceof DataDirBusyError ? EXIT.failure : EXIT.usage);
    }
    process.stderr.write(
      `coinventory-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(EXIT.failure);
  });
