import { connectDatabase, databaseOptions } from '../db/connect.js';
import { lockEmbeddedDataDir } from '../db/data-dir-lock.js';
import { migrate } from '../db/migrate.js';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';
import { syncWorkerFromEnv } from '../modules/marketplace/index.js';
import { addressPolicyFromEnv, webhookWorkerFromEnv } from '../modules/webhooks/index.js';
import { checkStatementTimeout } from './database.js';

/** The marketplace sync and webhook workers on their own, for operators who run them apart from the HTTP servers. */
export async function syncWorker(env: Env, logger: Logger) {
  const webhookPolicy = addressPolicyFromEnv(env);
  const lock = lockEmbeddedDataDir(env.DATABASE_URL, env.COINVENTORY_DATA_DIR);
  const database = await connectDatabase(
    databaseOptions(env, { poolSize: 2, statementTimeoutMs: env.STATEMENT_TIMEOUT_MS }),
  );
  await checkStatementTimeout(database, env, logger);
  await database.direct(migrate);
  const worker = syncWorkerFromEnv(env, database.sql, logger);
  const webhookWorker = webhookWorkerFromEnv(env, database.sql, logger, webhookPolicy);
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'sync worker stopping');
    (async () => {
      await Promise.all([worker.stop(), webhookWorker.stop()]);
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
