import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import { connectDatabase, databaseOptions } from '../db/connect.js';
import { lockEmbeddedDataDir } from '../db/data-dir-lock.js';
import type { Env } from '../env.js';
import type { Logger } from '../logger.js';
import { syncWorkerFromEnv } from '../modules/marketplace/index.js';
import { createMetrics, METRICS_PATH, metricsRoute } from '../modules/metrics/index.js';
import { startReservationExpiry } from '../modules/reservations/index.js';
import { startValuationScheduler } from '../modules/valuations/index.js';
import { addressPolicyFromEnv, webhookWorkerFromEnv } from '../modules/webhooks/index.js';
import { checkStatementTimeout, migrateDatabase } from './database.js';
import { warnIfMetricsExposed } from './metrics-exposure.js';

/** The marketplace sync and webhook workers on their own, for operators who run them apart from the HTTP servers. */
export async function syncWorker(env: Env, logger: Logger) {
  const webhookPolicy = addressPolicyFromEnv(env);
  const lock = lockEmbeddedDataDir(env.DATABASE_URL, env.COINVENTORY_DATA_DIR);
  const database = await connectDatabase(
    databaseOptions(env, { poolSize: 2, statementTimeoutMs: env.STATEMENT_TIMEOUT_MS }),
  );
  await checkStatementTimeout(database, env, logger);
  await migrateDatabase(database, env);
  // Its deliveries are counted here, not in the HTTP servers: with METRICS_PORT it serves its own /metrics.
  const metrics =
    env.METRICS === 'on' && env.METRICS_PORT ? createMetrics({ sql: database.sql, poolMax: 2 }) : undefined;
  let metricsServer: Server | undefined;
  if (metrics && env.METRICS_PORT) {
    warnIfMetricsExposed(env, logger, env.METRICS_PORT);
    const app = express();
    app.disable('x-powered-by');
    app.get(METRICS_PATH, metricsRoute(metrics, { token: env.METRICS_TOKEN }));
    app.use((_req, res) => {
      res.status(404).json({ code: 'NOT_FOUND', message: 'Resource not found' });
    });
    metricsServer = app.listen(env.METRICS_PORT, env.HOST);
    await once(metricsServer, 'listening');
    logger.info({ port: env.METRICS_PORT }, 'sync worker metrics listening');
  }
  const worker = syncWorkerFromEnv(env, database.sql, logger, metrics?.sync);
  const webhookWorker = webhookWorkerFromEnv(env, database.sql, logger, webhookPolicy);
  const valuations = startValuationScheduler({ sql: database.sql, logger, pollMs: env.VALUATION_POLL_MS });
  const reservations = startReservationExpiry({
    sql: database.sql,
    logger,
    pollMs: env.RESERVATION_EXPIRY_INTERVAL_MS,
    notify: { syncQueued: () => worker.kick(), webhooksQueued: () => webhookWorker.kick() },
  });
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'sync worker stopping');
    (async () => {
      metricsServer?.close();
      await Promise.all([worker.stop(), webhookWorker.stop(), valuations.stop(), reservations.stop()]);
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
