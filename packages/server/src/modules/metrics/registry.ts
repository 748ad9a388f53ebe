import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Queryable, Sql } from '../../db/types.js';
import { droppedLogLines } from '../../logger.js';
import {
  listGates,
  oldestPendingSyncSeconds,
  SYNC_STATES,
  type SyncObserver,
  syncJobCounts,
} from '../marketplace/index.js';

/**
 * One process's metrics, in a registry of its own (never prom-client's global one: tests run many apps in one
 * process). What a scrape reads from the database (sync jobs by state, the marketplace's gate) is the deployment's,
 * the same from every process: those gauges aggregate across a cluster's workers with `max`, the rest sum.
 */
export interface Metrics {
  registry: Registry;
  /**
   * The middleware that counts every request of an app when its response is finished: route, status, time; refusals
   * and failed authentications. `appRequest` is the app's request prototype (`app.request`), where the route each
   * request matched is remembered.
   */
  http(appRequest: object): (req: Request, res: Response, next: NextFunction) => void;
  /** The pool, instrumented: transactions in progress and how long each waited for a connection. */
  instrumentPool<T extends Sql>(sql: T): T;
  /** What the sync worker reports. */
  sync: SyncObserver;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DELIVERY_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400];

const ROUTE = Symbol('route');
const MOUNT_PATH = Symbol('route mount path');
interface RoutedRequest {
  baseUrl: string;
  [ROUTE]?: { path?: unknown };
  [MOUNT_PATH]?: string;
}

/**
 * Makes the requests of an app (those whose prototype is `proto`) remember where the route they matched is mounted:
 * `req.baseUrl` at the moment express assigns `req.route`, which it resets as the request leaves that router. Defined
 * once on the app's request prototype rather than on each request: an accessor defined on a request gives it a shape
 * of its own, and every later read of its properties (express's, ts-rest's, ours) goes the slow way.
 */
function rememberRouteMounts(proto: object): void {
  if (Object.hasOwn(proto, 'route')) return;
  Object.defineProperty(proto, 'route', {
    configurable: true,
    enumerable: true,
    get(this: RoutedRequest) {
      return this[ROUTE];
    },
    set(this: RoutedRequest, value: { path?: unknown }) {
      this[ROUTE] = value;
      this[MOUNT_PATH] = this.baseUrl;
    },
  });
}

/** The route a request matched, as a template (`/v1/items/:id`), so that ids do not become label values. */
function routeTemplate(req: RoutedRequest): string {
  const path = req[ROUTE]?.path;
  return typeof path === 'string' ? `${req[MOUNT_PATH]}${path}` : 'unmatched';
}

/** Why a 401 or 403 was answered, from the challenge the access module sent. */
function authFailureReason(res: Response): string {
  const challenge = String(res.getHeader('WWW-Authenticate') ?? '');
  const error = /error="([a-z_]+)"/.exec(challenge)?.[1];
  if (error === 'insufficient_scope') return 'insufficient_scope';
  if (error === 'invalid_token') return res.statusCode === 403 ? 'access_revoked' : 'invalid_token';
  if (error === 'invalid_request') return 'invalid_request';
  return res.statusCode === 403 ? 'access_revoked' : 'missing';
}

export function createMetrics({ sql, poolMax }: { sql: Queryable; poolMax: number }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'coinventory_' });
  // Registered in this order, which is the order a scrape lists them in.
  const http = requestMetrics(registry);
  const instrumentPool = poolMetrics(registry, poolMax);
  const sync = syncMetrics(registry);
  logMetrics(registry);
  deploymentGauges(registry, sql);
  return { registry, http, instrumentPool, sync };
}

/** Every request, counted when its response is finished: route, status, time; refusals and failed authentications. */
function requestMetrics(registry: Registry): Metrics['http'] {
  const requests = new Counter({
    name: 'coinventory_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'coinventory_http_request_duration_seconds',
    help: 'Time from a request arriving to its response being finished, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'coinventory_rate_limit_refusals_total',
    help: "Requests answered 429: over a key's rate limit (key), or from an address that kept failing to authenticate (failed_auth).",
    labelNames: ['limit'],
    registers: [registry],
  });
  const authFailures = new Counter({
    name: 'coinventory_authentication_failures_total',
    help: 'Requests answered 401 or 403 by the access check, by reason (missing, invalid_request, invalid_token, access_revoked, insufficient_scope).',
    labelNames: ['reason'],
    registers: [registry],
  });
  return (appRequest) => {
    rememberRouteMounts(appRequest);
    return (req, res, next) => {
      const started = performance.now();
      res.once('finish', () => {
        const route = routeTemplate(req as unknown as RoutedRequest);
        const status = res.statusCode;
        requests.inc({ method: req.method, route, status: String(status) });
        duration.observe({ method: req.method, route }, (performance.now() - started) / 1000);
        if (status === 429) refusals.inc({ limit: res.getHeader('RateLimit') === undefined ? 'failed_auth' : 'key' });
        // The API's access check, not the metrics token's (whose refusals are counted under /metrics).
        if (
          (status === 401 || status === 403) &&
          route !== '/metrics' &&
          res.getHeader('WWW-Authenticate') !== undefined
        ) {
          authFailures.inc({ reason: authFailureReason(res) });
        }
      });
      next();
    };
  };
}

/** The pool's size, and a wrapper that counts its transactions in progress and how long each waited. */
function poolMetrics(registry: Registry, poolMax: number): Metrics['instrumentPool'] {
  const poolSize = new Gauge({
    name: 'coinventory_db_pool_max_connections',
    help: 'Connections this process may open to the database (DATABASE_POOL_SIZE; 1 on the embedded database).',
    registers: [registry],
  });
  poolSize.set(poolMax);
  const transactions = new Gauge({
    name: 'coinventory_db_transactions_in_progress',
    help: 'Transactions holding (or waiting for) a pool connection now. Near the pool size means requests queue for one.',
    labelNames: ['phase'],
    registers: [registry],
  });
  const poolWait = new Histogram({
    name: 'coinventory_db_transaction_wait_seconds',
    help: 'Time from asking the pool for a transaction to its first statement: waiting for a free connection, plus BEGIN.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return <T extends Sql>(pool: T): T => {
    const begin = pool.begin as (...args: unknown[]) => Promise<unknown>;
    const instrumentedBegin = (...args: unknown[]) => {
      const index = args.findIndex((arg) => typeof arg === 'function');
      const work = args[index] as (tx: unknown) => unknown;
      const asked = performance.now();
      let phase: 'waiting' | 'running' = 'waiting';
      transactions.inc({ phase });
      const instrumented = async (tx: unknown) => {
        poolWait.observe((performance.now() - asked) / 1000);
        transactions.dec({ phase: 'waiting' });
        phase = 'running';
        transactions.inc({ phase });
        return work(tx);
      };
      const call = [...args];
      call[index] = instrumented;
      return begin.apply(pool, call).finally(() => transactions.dec({ phase }));
    };
    // The pool with its own `begin`: a function whose prototype is the pool rather than a Proxy, since every
    // statement of every request passes through it and V8 optimises no Proxy (a tenth of GET /me's CPU).
    const run = pool as unknown as (...args: unknown[]) => unknown;
    const instrumented = (...args: unknown[]) => run(...args);
    Object.setPrototypeOf(instrumented, pool);
    return Object.assign(instrumented, { begin: instrumentedBegin }) as unknown as T;
  };
}

/** What the sync worker reports: the marketplace's answers, delivery latency, and jobs given up. */
function syncMetrics(registry: Registry): SyncObserver {
  const responses = new Counter({
    name: 'coinventory_marketplace_responses_total',
    help: 'Marketplace calls by outcome: the HTTP status, or network / timeout when none came (local: no marketplace configured).',
    labelNames: ['status'],
    registers: [registry],
  });
  const callDuration = new Histogram({
    name: 'coinventory_marketplace_request_duration_seconds',
    help: 'Time one marketplace call took, answered or not.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const deliveryLatency = new Histogram({
    name: 'coinventory_sync_delivery_latency_seconds',
    help: 'Time from a quantity change being committed to the marketplace accepting it.',
    buckets: DELIVERY_BUCKETS,
    registers: [registry],
  });
  const deaths = new Counter({
    name: 'coinventory_sync_jobs_dead_total',
    help: 'Sync jobs this process gave up (a permanent refusal, or failing past SYNC_GIVE_UP_SECONDS).',
    registers: [registry],
  });
  return {
    response(outcome, seconds) {
      responses.inc({ status: outcome });
      callDuration.observe(seconds);
    },
    delivered(_job, ageSeconds) {
      deliveryLatency.observe(ageSeconds);
    },
    dead() {
      deaths.inc();
    },
  };
}

function logMetrics(registry: Registry): void {
  new Counter({
    name: 'coinventory_log_lines_dropped_total',
    help: "Log lines dropped because stdout's reader stopped keeping up, or had gone, rather than held in memory.",
    registers: [registry],
    // The process's stdout output counts them (logger.ts); read at each scrape.
    collect() {
      this.reset();
      this.inc(droppedLogLines());
    },
  });
}

/**
 * Read from the database at each scrape: the deployment's state, whichever process delivers. Each registers itself
 * in `registry` (its `collect` runs at scrape), so nothing holds on to them here.
 */
function deploymentGauges(registry: Registry, sql: Queryable): void {
  new Gauge({
    name: 'coinventory_sync_jobs',
    help: 'Sync jobs in the database, by state (done and superseded are kept as history).',
    labelNames: ['state'],
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const counts = await syncJobCounts(sql);
      for (const state of SYNC_STATES) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: 'coinventory_sync_oldest_pending_age_seconds',
    help: 'Age of the oldest pending sync job (0 when none is pending): how far the marketplace is behind.',
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.set(await oldestPendingSyncSeconds(sql));
    },
  });
  new Gauge({
    name: 'coinventory_marketplace_gate',
    help: "The marketplace's gate: paused (1 while a Retry-After or an open circuit holds deliveries), circuit_open (1 while open), consecutive_failures.",
    labelNames: ['marketplace', 'state'],
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.reset();
      const now = Date.now();
      for (const row of await listGates(sql)) {
        this.set({ marketplace: row.marketplace, state: 'paused' }, row.pausedUntil.getTime() > now ? 1 : 0);
        this.set({ marketplace: row.marketplace, state: 'circuit_open' }, row.circuit === 'open' ? 1 : 0);
        this.set({ marketplace: row.marketplace, state: 'consecutive_failures' }, row.consecutiveFailures);
      }
    },
  });
  new Gauge({
    name: 'coinventory_db_connections',
    help: "The deployment's connections to the database as PostgreSQL sees them (application_name coinventory-server), by state: active, idle, idle in transaction.",
    labelNames: ['state'],
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await sql<{ state: string | null; count: number }[]>`
        SELECT state, count(*)::int AS count FROM pg_stat_activity
        WHERE application_name = 'coinventory-server' AND datname = current_database()
        GROUP BY state
      `;
      for (const row of rows) this.set({ state: row.state ?? 'unknown' }, row.count);
    },
  });
}
