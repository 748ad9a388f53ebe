import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/connect.js';
import { createApp } from '../../src/http/app.js';
import { answerClientErrors } from '../../src/http/client-errors.js';
import { expressBorn } from '../../src/http/express-born.js';
import type { RatePolicy } from '../../src/modules/access/index.js';
import type { WebhookSettings } from '../../src/modules/webhooks/index.js';
import { createTestDatabase } from './database.js';
import { createTestOrganization, type TestOrganization } from './organization.js';

export interface TestServer {
  baseUrl: string;
  /** The server's origin, without /v1. */
  origin: string;
  database: Database;
  close(): Promise<void>;
}

/** The real app on a real database, listening on a loopback port. */
export interface TestServerOptions {
  statementTimeoutMs?: number;
  /** The rate limit; the API's own (120 per 60 s) unless a suite that is not about it needs more requests. */
  policy?: RatePolicy;
  publicBaseUrl?: string;
  /** Where the server logs (silent unless TEST_LOG_LEVEL says otherwise); suites that assert on logs pass theirs. */
  logger?: Logger;
  /** The request deadline, body timeout and queue limit (the app's defaults otherwise). */
  requestTimeoutMs?: number;
  requestBodyTimeoutMs?: number;
  queueLimit?: number;
  /** Told when a change queued marketplace sync jobs. */
  onSyncQueued?: () => void;
  /** Where webhook endpoints may point, the test ping's timeout, and the webhook worker's kick (the app's defaults otherwise). */
  webhooks?: WebhookSettings;
  /** Origins allowed to call from a browser (CORS_ALLOWED_ORIGINS); none unless given. */
  corsOrigins?: readonly string[];
  /** How long an export's reader may take nothing before it is dropped (EXPORTS.stallTimeoutMs unless given). */
  exportStallTimeoutMs?: number;
  /**
   * The database to serve, when a file's servers differ only in their settings (see sharedTestDatabase): the caller's,
   * left open when the server closes, with its own statement timeout. A new one otherwise (each costs seconds on the
   * embedded database), closed with the server.
   */
  database?: Database | (() => Database);
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const given = typeof options.database === 'function' ? options.database() : options.database;
  const database = given ?? (await createTestDatabase(options));
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  // The server's own request and response classes (entry/server.ts), so every suite runs what production runs.
  const born = expressBorn();
  const app = createApp({
    sql: database.sql,
    logger,
    policy: options.policy,
    publicBaseUrl: options.publicBaseUrl,
    requestTimeoutMs: options.requestTimeoutMs,
    requestBodyTimeoutMs: options.requestBodyTimeoutMs,
    queueLimit: options.queueLimit,
    onSyncQueued: options.onSyncQueued,
    webhooks: options.webhooks,
    ...(options.corsOrigins && { corsOrigins: options.corsOrigins }),
    exportStallTimeoutMs: options.exportStallTimeoutMs,
    cancelStatements: database.kind === 'postgres',
  });
  born.adopt(app);
  const server = createServer({ IncomingMessage: born.IncomingMessage, ServerResponse: born.ServerResponse }, app);
  answerClientErrors(server, logger);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    database,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!given) await database.close();
    },
  };
}

/**
 * A server and one organization on it for the enclosing suite (the file, or the `describe` that calls this): started
 * before its tests and closed after them. Its fields are there from the suite's first hook on.
 */
export function serverWithOrganization(options: TestServerOptions = {}): {
  readonly server: TestServer;
  readonly organization: TestOrganization;
} {
  let started: { server: TestServer; organization: TestOrganization } | undefined;
  beforeAll(async () => {
    const server = await startTestServer(options);
    started = { server, organization: await createTestOrganization(server.database.sql) };
  });
  afterAll(() => started?.server.close());
  const get = () => {
    if (!started) throw new Error('the suite’s server starts in its beforeAll');
    return started;
  };
  return {
    get server() {
      return get().server;
    },
    get organization() {
      return get().organization;
    },
  };
}
