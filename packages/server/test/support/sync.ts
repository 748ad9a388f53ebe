import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delay, HttpResponse, http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import pino, { type Logger } from 'pino';
import { inject } from 'vitest';
import { createSql, type Database } from '../../src/db/connect.js';
import type { Sql } from '../../src/db/types.js';
import { createApp } from '../../src/http/app.js';
import { httpMarketplaceAdapter } from '../../src/modules/marketplace/adapters/http.js';
import { claimListing, type SyncJob, type SyncState } from '../../src/modules/marketplace/store.js';
import { type SyncWorker, type SyncWorkerOptions, startSyncWorker } from '../../src/modules/marketplace/worker.js';
import { createTestDatabase } from './database.js';

/** Where the fake marketplace lives: msw answers for this host, nothing listens there. */
export const MARKETPLACE_BASE = 'https://marketplace.test/api';
export const MARKETPLACE_TOKEN = 'mp-test-token-7f3a';

export const testLogger = (): Logger => pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** One request the marketplace received, as it arrived. */
export interface MarketplaceCall {
  method: 'PUT' | 'DELETE';
  /** The listing id from the path, decoded. */
  listingId: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body (PUT), or null. */
  body: unknown;
  /** Date.now() when the handler was entered. */
  receivedAt: number;
  /** Date.now() when the handler returned its response (null while it is still working). */
  answeredAt: number | null;
}

/** What the marketplace answers; `n` counts the calls so far, this one included (1-based). */
export type MarketplaceBehaviour = (call: MarketplaceCall, n: number) => Response | Promise<Response>;

export const ok = (): Response => HttpResponse.json({ ok: true }, { status: 200 });
export const wait = (ms: number) => delay(ms);

/**
 * A stand-in for the related marketplace: msw handlers for PUT {base}/listings/:id/quantity and
 * DELETE {base}/listings/:id that record every call and answer with `behaviour` (200 by default). Any other
 * request that is not loopback (the test's own calls to the API server) fails the test.
 */
export class FakeMarketplace {
  readonly calls: MarketplaceCall[] = [];
  behaviour: MarketplaceBehaviour = () => ok();
  readonly msw: SetupServer;

  constructor() {
    const record = async (method: 'PUT' | 'DELETE', request: Request, id: string): Promise<Response> => {
      const text = await request.text();
      const call: MarketplaceCall = {
        method,
        listingId: id,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers.entries()),
        body: text ? (JSON.parse(text) as unknown) : null,
        receivedAt: Date.now(),
        answeredAt: null,
      };
      this.calls.push(call);
      const response = await this.behaviour(call, this.calls.length);
      call.answeredAt = Date.now();
      return response;
    };
    this.msw = setupServer(
      http.put(`${MARKETPLACE_BASE}/listings/:id/quantity`, ({ request, params }) =>
        record('PUT', request, String(params.id)),
      ),
      http.delete(`${MARKETPLACE_BASE}/listings/:id`, ({ request, params }) =>
        record('DELETE', request, String(params.id)),
      ),
    );
  }

  listen(): void {
    this.msw.listen({
      onUnhandledRequest(request, print) {
        if (new URL(request.url).hostname === '127.0.0.1') return;
        print.error();
      },
    });
  }

  close(): void {
    this.msw.close();
  }

  /** Forgets the calls and answers 200 again. */
  reset(): void {
    this.calls.length = 0;
    this.behaviour = () => ok();
  }

  callsFor(listingId: string): MarketplaceCall[] {
    return this.calls.filter((call) => call.listingId === listingId);
  }
}

/** The worker settings the sync tests use: fast polls and backoff, so retries happen in milliseconds. */
export const FAST_WORKER = {
  pollMs: 20,
  concurrency: 4,
  giveUpMs: 24 * 3600_000,
  baseDelayMs: 10,
  maxDelayMs: 100,
  leaseMs: 2000,
  circuitFailures: 5,
  circuitOpenMs: 100,
} as const satisfies Partial<SyncWorkerOptions>;

export type WorkerSettings = Partial<Omit<SyncWorkerOptions, 'sql' | 'adapter'>>;

/** A logger that keeps what it writes: each line parsed, for tests that check what an operator would see. */
export function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info' },
    {
      write(line: string) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines };
}

/**
 * A real sync worker with the real HTTP adapter, pointed at the fake marketplace. Create it after the msw
 * server listens: the adapter takes the global fetch when it is made.
 */
export function startWorker(
  sql: Sql,
  settings: WorkerSettings = {},
  /** `token: null` configures none. */
  { autostart = true, token = MARKETPLACE_TOKEN as string | null, timeoutMs = 1500 } = {},
): SyncWorker {
  const adapter = httpMarketplaceAdapter({ baseUrl: MARKETPLACE_BASE, token: token ?? undefined, timeoutMs });
  return startSyncWorker({ sql, adapter, logger: testLogger(), ...FAST_WORKER, ...settings }, { autostart });
}

/** The real app on a loopback port, its sync notifications going to `onSyncQueued`. */
export interface AppServer {
  baseUrl: string;
  /** Stops accepting requests and drops connections; the database stays. */
  close(): Promise<void>;
}

export async function startAppServer(sql: Sql, onSyncQueued: () => void): Promise<AppServer> {
  const server: Server = createServer(createApp({ sql, logger: testLogger(), onSyncQueued }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { createTestDatabase };

/**
 * Another connection pool to the same database, as a second process would have. The embedded database is a
 * single session, so there it is the same pool (and `end` does nothing).
 */
export async function secondPool(database: Database): Promise<{ sql: Sql; end(): Promise<void> }> {
  const clusterUrl = inject('postgresUrl');
  if (!clusterUrl || database.kind === 'embedded') return { sql: database.sql, end: async () => {} };
  const [row] = await database.sql<{ name: string }[]>`SELECT current_database() AS name`;
  if (!row) throw new Error('no current database');
  const url = new URL(clusterUrl);
  url.pathname = `/${row.name}`;
  const sql = createSql(url.toString(), { max: 10, statementTimeoutMs: 0 });
  return { sql, end: () => sql.end({ timeout: 5 }) };
}

/** A job row with the columns the tests look at. */
export interface JobRow {
  id: string;
  listingId: string;
  marketplaceListingId: string;
  kind: string;
  quantity: number | null;
  sequence: number;
  state: SyncState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** Every job of a marketplace listing id, oldest sequence first. */
export async function jobsOf(sql: Sql, organizationId: string, marketplaceListingId: string): Promise<JobRow[]> {
  return sql<JobRow[]>`
    SELECT id, listing_id AS "listingId", marketplace_listing_id AS "marketplaceListingId", kind, quantity,
           sequence, state, attempts, last_error AS "lastError", next_attempt_at AS "nextAttemptAt",
           updated_at AS "updatedAt", completed_at AS "completedAt"
    FROM marketplace_sync_jobs
    WHERE organization_id = ${organizationId} AND marketplace_listing_id = ${marketplaceListingId}
    ORDER BY sequence
  `;
}

export interface ListingState {
  id: string;
  itemId: string | null;
  status: string;
  lastSyncedQuantity: number | null;
  lastSyncedAt: Date | null;
  syncSequence: number;
  deliveredSequence: number;
  leaseOwner: string | null;
}

export async function listingOf(
  sql: Sql,
  organizationId: string,
  marketplaceListingId: string,
): Promise<ListingState | undefined> {
  const [row] = await sql<ListingState[]>`
    SELECT id, item_id AS "itemId", status, last_synced_quantity AS "lastSyncedQuantity",
           last_synced_at AS "lastSyncedAt", sync_sequence AS "syncSequence",
           delivered_sequence AS "deliveredSequence", lease_owner AS "leaseOwner"
    FROM marketplace_listings
    WHERE organization_id = ${organizationId} AND marketplace_listing_id = ${marketplaceListingId}
  `;
  return row;
}

/** Polls `read` every 20 ms until `done` holds, failing with the last value after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the listing's jobs are all settled: none pending, and no worker holding the listing. The worker
 * marks a job done and then updates (and releases) the listing in a second statement, so the job's state alone
 * is not the end of a delivery.
 */
export async function settled(sql: Sql, organizationId: string, marketplaceListingId: string): Promise<JobRow[]> {
  const read = async () => ({
    jobs: await jobsOf(sql, organizationId, marketplaceListingId),
    lease: (await listingOf(sql, organizationId, marketplaceListingId))?.leaseOwner ?? null,
  });
  const done = await eventually(
    read,
    ({ jobs, lease }) => jobs.length > 0 && jobs.every((job) => job.state !== 'pending') && lease === null,
    { what: `the jobs of ${marketplaceListingId} to settle` },
  );
  return done.jobs;
}

/** Holds a lease on the listing as a worker that then dies would: claimed, never completed or released. */
export async function leaseAsDeadWorker(sql: Sql, leaseMs: number) {
  return claimListing(sql, 'dead-worker', leaseMs);
}

/**
 * A pool that dies like a crashed process: the first statement whose text contains `marker` is never run, and
 * nothing after it is either (every later query, from any lane, hangs). A worker on it can never be stopped; leave
 * it behind.
 */
export function crashingBefore(sql: Sql, marker: string): { sql: Sql; crashed: () => boolean } {
  let crashed = false;
  const proxy = new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const [strings] = args;
      if (!crashed && Array.isArray(strings) && strings.join('?').includes(marker)) crashed = true;
      if (crashed) return new Promise<never>(() => {});
      return Reflect.apply(target, thisArg, args);
    },
  });
  return { sql: proxy, crashed: () => crashed };
}

export type { SyncJob };
