#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { connectDatabase } from './db/connect.js';
import { migrate } from './db/migrate.js';
import { type DemoWorkspace, seedDemoWorkspace } from './demo/seed.js';
import { ConfigError, type Env, loadEnv } from './env.js';
import { createLogger, type Logger } from './logger.js';
import { startServer } from './server.js';

const USAGE = `Usage: coinventory-server <command> [options]

Commands:
  start      Start the HTTP server (the default). Applies pending migrations first. On an empty
             embedded database it also creates a demo workspace and prints an API key once.
  migrate    Apply pending migrations and exit.

Options:
  --json     Print the command's result as JSON (migrate).
  -h, --help Show this help.

Configuration (environment):
  PORT (3000), HOST (127.0.0.1), DATABASE_URL (unset: embedded database),
  COINVENTORY_DATA_DIR (.coinventory/data), LOG_LEVEL (info), STATEMENT_TIMEOUT_MS (10000),
  DATABASE_POOL_SIZE (10), SHUTDOWN_TIMEOUT_MS (10000)`;

async function start(env: Env, logger: Logger) {
  let demo: DemoWorkspace | undefined;
  const server = await startServer({
    env,
    logger,
    beforeListen: async (database) => {
      // Only a brand-new embedded database gets the demo workspace; a real PostgreSQL is the operator's.
      if (database.kind !== 'embedded') return;
      const [existing] = await database.sql`SELECT 1 FROM organizations LIMIT 1`;
      if (existing) return;
      demo = await seedDemoWorkspace(database.sql);
      logger.info({ organizationId: demo.organizationId, counts: demo.counts }, 'demo workspace created');
    },
  });
  if (demo) printDemoKey(server.baseUrl, demo.slug, demo.key.key);
  logger.info({ baseUrl: server.baseUrl, database: server.database.kind }, 'listening');

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    server
      .close()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
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

async function runMigrate(env: Env, json: boolean) {
  const database = await connectDatabase({
    url: env.DATABASE_URL,
    dataDir: env.COINVENTORY_DATA_DIR,
    poolSize: 1,
    statementTimeoutMs: 0,
  });
  try {
    const result = await migrate(database.sql);
    if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else if (result.applied.length === 0) process.stdout.write(`Schema is up to date (version ${result.current}).\n`);
    else {
      for (const { version, name } of result.applied) process.stdout.write(`Applied ${version} ${name}\n`);
      process.stdout.write(`Schema is at version ${result.current}.\n`);
    }
  } finally {
    await database.close();
  }
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const command = positionals[0] ?? 'start';
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env = loadEnv();
  switch (command) {
    case 'start':
      return start(env, createLogger(env.LOG_LEVEL));
    case 'migrate':
      return runMigrate(env, values.json);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`coinventory-server: ${error.message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
    process.exit(2);
  }
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`coinventory-server: ${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `coinventory-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
