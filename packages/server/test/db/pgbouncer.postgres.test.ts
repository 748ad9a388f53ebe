import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ItemSchema, MeSchema, RATE_LIMIT } from '@coinventory/contract';
import { freePort } from '@coinventory/test-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { Sql } from '../../src/db/types.js';
import { issueApiKey } from '../../src/modules/access/index.js';
import { type Running, run, runToEnd, start, stop } from '../support/binary.js';
import { parseNdjson, requestExport } from '../support/exports.js';
import { type ApiResponse, call, client, expectStatus } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { findPgbouncer, type Pgbouncer, startPgbouncer } from '../support/pgbouncer.js';

/**
 * Coinventory through PgBouncer 1.18 in transaction pooling mode (DATABASE_POOLER=transaction), as operators run
 * several instances on one PostgreSQL: the start-up migration through the pooler, the rate limit exact across two
 * processes, and marketplace sync by standalone `sync-worker` processes, never concurrent or out of order for a
 * listing. PgBouncer here has fewer server connections than the processes have clients, so they take turns.
 */

const PGBOUNCER = findPgbouncer();
if (!PGBOUNCER) {
  if (process.env.CI) {
    throw new Error('CI needs PgBouncer (/usr/sbin/pgbouncer, Debian package pgbouncer; .ci/run installs it)');
  }
  console.warn('[coinventory] No pgbouncer binary (/usr/sbin/pgbouncer, or PGBOUNCER_BIN): PgBouncer tests skipped.');
}

/** What PgBouncer's connect_query sets, and the servers' STATEMENT_TIMEOUT_MS (its default) agrees with. */
const STATEMENT_TIMEOUT_MS = 10_000;
const MARKETPLACE_TOKEN = 'mp-pgbouncer-token';
const ITEMS = 3;
const CHANGES_PER_ITEM = 20;

interface LogLine {
  msg: string;
  [field: string]: unknown;
}
const logLines = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
const TIMEOUT_WARNING = "the database's statement_timeout differs from STATEMENT_TIMEOUT_MS";

describe.skipIf(!PGBOUNCER)('through PgBouncer in transaction pooling mode', () => {
  let admin: Sql;
  let sql: Sql;
  let databaseName: string;
  let bouncer: Pgbouncer | undefined;
  let pooled: Record<string, string>;
  let directUrl: string;
  const processes: Running[] = [];

  beforeAll(async () => {
    const clusterUrl = inject('postgresUrl');
    admin = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
    databaseName = `pgbouncer_${randomBytes(6).toString('hex')}`;
    await admin`CREATE DATABASE ${admin(databaseName)}`;
    const cluster = new URL(clusterUrl);
    bouncer = await startPgbouncer(PGBOUNCER ?? '', {
      postgres: { host: cluster.hostname, port: Number(cluster.port) },
      connectQuery: `SET statement_timeout = ${STATEMENT_TIMEOUT_MS}`,
      poolSize: 6,
    });
    pooled = { DATABASE_URL: bouncer.url(databaseName), DATABASE_POOLER: 'transaction' };
    cluster.pathname = `/${databaseName}`;
    directUrl = cluster.toString();
    sql = createSql(directUrl, { max: 2, statementTimeoutMs: 0 });
  });

  afterAll(async () => {
    await Promise.all(processes.map((running) => stop(running)));
    await sql?.end({ timeout: 5 });
    await bouncer?.stop();
    if (databaseName) await admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`;
    await admin?.end({ timeout: 5 });
  });

  /** A process of the binary, stopped in afterAll. */
  const started = async (env: Record<string, string>) => {
    const running = await start(env);
    processes.push(running);
    return running;
  };

  it('without DATABASE_POOLER=transaction, start stops at once with a line naming it (PgBouncer refuses statement_timeout)', async () => {
    const refused = await runToEnd(['start'], { DATABASE_URL: pooled.DATABASE_URL ?? '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('DATABASE_URL refused the startup parameter statement_timeout');
    expect(refused.stderr).toContain('Set DATABASE_POOLER=transaction');
  });

  it("the pool answers a query with parameters sent right behind one without (as /readyz's SELECT 1 is)", async () => {
    // PgBouncer 1.18 hands the server connection back at the end of the first query, and without prepared statements
    // the second one's Parse and Describe wait for a Flush, not a Sync: pipelined, its answers went to nobody.
    const pool = createSql(pooled.DATABASE_URL ?? '', { max: 1, statementTimeoutMs: 0, pooler: 'transaction' });
    try {
      const rounds = Promise.all(
        Array.from({ length: 20 }, (_, n) => Promise.all([pool`SELECT 1 AS one`, pool`SELECT ${n}::int AS n`])),
      );
      const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5_000).unref());
      const answered = await Promise.race([rounds, hung]);
      expect(answered === 'hung' ? answered : answered.map(([, [row]]) => row?.n)).toEqual(
        Array.from({ length: 20 }, (_, n) => n),
      );
    } finally {
      await pool.end({ timeout: 1 });
    }
  });

  it('with DATABASE_URL alone, start applies every migration through the pooler, and warns of a statement_timeout that differs', async () => {
    const server = await started({ ...pooled, STATEMENT_TIMEOUT_MS: '5000', SYNC_WORKER: 'off' });
    const lines = logLines(server.stdout());
    expect(lines.filter((line) => line.msg === 'migration applied').map((line) => line.version)).toEqual(
      migrations.map((migration) => migration.version),
    );
    expect(lines.filter((line) => line.msg === TIMEOUT_WARNING)).toMatchObject([
      { level: 40, databaseMs: STATEMENT_TIMEOUT_MS, configuredMs: 5000 },
    ]);
    const recorded = await sql<{ version: number }[]>`SELECT version FROM schema_migrations ORDER BY version`;
    expect(recorded.map((row) => row.version)).toEqual(migrations.map((migration) => migration.version));
    expect((await call(server.baseUrl.replace(/\/v1$/, ''), 'GET', '/readyz')).status).toBe(200);
    expect(await stop(server)).toBe(0);
  });

  describe('two server processes through the pooler, one of them with DATABASE_DIRECT_URL', () => {
    let servers: [Running, Running];
    let organization: TestOrganization;
    /** One of the two servers, taking turns. */
    const server = (n: number) => (n % 2 === 0 ? servers[0] : servers[1]);

    beforeAll(async () => {
      const env = { ...pooled, SYNC_WORKER: 'off' };
      const [first, second] = await Promise.all([started(env), started({ ...env, DATABASE_DIRECT_URL: directUrl })]);
      servers = [first, second];
      organization = await createTestOrganization(sql);
    });

    it('apply STATEMENT_TIMEOUT_MS as the pooler sets it, so neither warns', () => {
      for (const one of servers) {
        expect(logLines(one.stdout()).filter((line) => line.msg === TIMEOUT_WARNING)).toEqual([]);
      }
    });

    it(`admit exactly ${RATE_LIMIT.maxRequests} of 200 concurrent requests of one key between them`, async () => {
      // With readiness checks among them, as a load balancer sends: SELECT 1, a statement without parameters.
      const ready = Promise.all(
        Array.from({ length: 40 }, (_, n) => call(server(n).baseUrl.replace(/\/v1$/, ''), 'GET', '/readyz')),
      );
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, n) => call(server(n).baseUrl, 'GET', '/me', { key: organization.key })),
      );
      expect((await ready).map((r) => r.status)).toEqual(Array.from({ length: 40 }, () => 200));
      expect(responses.map((r) => r.status).filter((status) => status !== 200 && status !== 429)).toEqual([]);
      const admitted = responses.filter((r) => r.status === 200);
      expect(admitted).toHaveLength(RATE_LIMIT.maxRequests);
      expect(MeSchema.parse(admitted[0]?.body).rateLimit).toEqual(RATE_LIMIT);
      // Every admission counted once, in one order across both processes: each remaining value comes once.
      expect(admitted.map(remainingOf).sort((a, b) => a - b)).toEqual(
        Array.from({ length: RATE_LIMIT.maxRequests }, (_, n) => n),
      );
      for (const one of servers)
        expect((await call(one.baseUrl, 'GET', '/me', { key: organization.key })).status).toBe(429);
    });

    it('sync listings through standalone sync-workers: never two requests for a listing at once, never a lower sequence after a higher, each listing ending at its item quantity', async () => {
      const marketplace = await startMarketplace();
      try {
        const issued = await issueApiKey(sql, {
          organizationId: organization.organizationId,
          createdBy: organization.ownerId,
          name: 'pgbouncer sync',
          scopes: ['read', 'write'],
        });
        const api = (n: number) => client(server(n).baseUrl, issued.key);
        const items = await Promise.all(
          Array.from({ length: ITEMS }, async (_, n) => {
            const created = await api(n).post('/items', {
              body: { sku: `PGB-${n}`, title: `Peace dollar ${n}`, quantity: 1 },
            });
            expectStatus(created, 200);
            return { id: ItemSchema.parse(created.body).id, sku: `PGB-${n}`, listingId: `PGB-L-${n}` };
          }),
        );
        // The operator's command, through the pooler too.
        const linked = await Promise.all(
          items.map((item) =>
            runToEnd(
              ['listing', 'link', '--org', organization.slug, '--item', item.sku, '--listing-id', item.listingId],
              pooled,
            ),
          ),
        );
        for (const result of linked) expect(result.code, result.stderr).toBe(0);

        const workerEnv = {
          ...pooled,
          MARKETPLACE_API_URL: `${marketplace.baseUrl}/api`,
          MARKETPLACE_API_TOKEN: MARKETPLACE_TOKEN,
          SYNC_POLL_MS: '20',
          SYNC_CONCURRENCY: '4',
        };
        // Each serves its own metrics, where its deliveries are counted.
        const metricsPorts = [await freePort(), await freePort()];
        await Promise.all([
          startedWorker({ ...workerEnv, METRICS_PORT: String(metricsPorts[0]) }),
          startedWorker({ ...workerEnv, DATABASE_DIRECT_URL: directUrl, METRICS_PORT: String(metricsPorts[1]) }),
        ]);

        // Each item's quantity changed over and over, the items at once, every change through either server.
        const finals = await Promise.all(
          items.map(async (item, n) => {
            let quantity = 1;
            for (let change = 0; change < CHANGES_PER_ITEM; change++) {
              quantity = (quantity + 1 + Math.floor(Math.random() * 40)) % 50;
              const patched = await api(n + change).patch(`/items/${item.id}`, { body: { quantity } });
              expectStatus(patched, 200);
            }
            return quantity;
          }),
        );

        const deadline = Date.now() + 20_000;
        for (;;) {
          const [open] = await sql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM marketplace_sync_jobs WHERE state = 'pending'
          `;
          const [leased] = await sql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM marketplace_listings WHERE lease_owner IS NOT NULL
          `;
          if (open?.n === 0 && leased?.n === 0) break;
          if (Date.now() > deadline) throw new Error(`sync did not settle: ${open?.n} pending, ${leased?.n} leased`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }

        expect(marketplace.overlaps).toEqual([]);
        const [dead] = await sql<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM marketplace_sync_jobs WHERE state = 'dead'`;
        expect(dead?.n).toBe(0);
        for (const [n, item] of items.entries()) {
          const calls = marketplace.calls.filter((c) => c.listingId === item.listingId);
          expect(calls.length).toBeGreaterThan(0);
          let highest = 0;
          for (const c of calls) {
            expect(c.sequence, `${item.listingId}: sequence ${c.sequence} after ${highest}`).toBeGreaterThanOrEqual(
              highest,
            );
            highest = c.sequence;
            expect(c).toMatchObject({ method: 'PUT', authorization: `Bearer ${MARKETPLACE_TOKEN}` });
            expect(c.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
          }
          expect(calls.at(-1)?.quantity, item.listingId).toBe(finals[n]);
          const [listing] = await sql<{ quantity: number }[]>`
            SELECT last_synced_quantity AS quantity FROM marketplace_listings
            WHERE organization_id = ${organization.organizationId} AND marketplace_listing_id = ${item.listingId}
          `;
          expect(listing?.quantity).toBe(finals[n]);
        }

        // The two workers' metrics add up to what the marketplace saw and what the database recorded.
        const scraped = await Promise.all(
          metricsPorts.map(async (port) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text()),
        );
        const sum = (name: string) =>
          scraped
            .flatMap((text) => text.split('\n'))
            .filter((line) => line.startsWith(name))
            .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
        const [done] = await sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM marketplace_sync_jobs WHERE state = 'done'
        `;
        expect(sum('coinventory_marketplace_responses_total{status="200"}')).toBe(marketplace.calls.length);
        expect(sum('coinventory_sync_delivery_latency_seconds_count')).toBe(done?.n);

        // The export's server-side cursor lives in its transaction, so it works through the pooler too.
        const exported = await requestExport(servers[0].baseUrl, issued.key);
        expect(exported.status).toBe(200);
        const { items: rows, end } = parseNdjson(exported.body);
        expect(end?.count).toBe(ITEMS);
        expect(rows.map((row) => row.quantity.available).sort()).toEqual([...finals].sort());
      } finally {
        await marketplace.close();
      }
    });

    /** A `sync-worker` process, once it has started its worker; stopped in afterAll. */
    const startedWorker = async (env: Record<string, string>) => {
      const child = run(['sync-worker'], env);
      let stdout = '';
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const running: Running = { child, baseUrl: '', stdout: () => stdout, stderr: () => stderr };
      processes.push(running);
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('"msg":"sync worker started"')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`sync-worker exited with ${code}:\n${stdout}\n${stderr}`)));
      });
      return running;
    };
  });
});

const remainingOf = (response: ApiResponse) => {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  if (!match) throw new Error(`bad RateLimit header: ${response.headers.get('ratelimit')}`);
  return Number(match[1]);
};

interface MarketplaceCall {
  method: string;
  listingId: string;
  sequence: number;
  quantity: number | undefined;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/**
 * The marketplace on a loopback port, for the workers in other processes: it answers every listing call 200 after
 * a few milliseconds (so that calls could overlap) and notes each call that arrives while another for its listing
 * is still being answered.
 */
async function startMarketplace() {
  const calls: MarketplaceCall[] = [];
  const overlaps: string[] = [];
  const answering = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/api\/listings\/([^/]+)(\/quantity)?$/.exec(req.url ?? '');
    const listingId = decodeURIComponent(match?.[1] ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    if ((answering.get(listingId) ?? 0) > 0) overlaps.push(`${req.method} ${listingId}`);
    answering.set(listingId, (answering.get(listingId) ?? 0) + 1);
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const parsed = body ? (JSON.parse(body) as { quantity?: number }) : {};
      calls.push({
        method: req.method ?? '',
        listingId,
        sequence: Number(req.headers['x-coinventory-sequence']),
        quantity: parsed.quantity,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        authorization: req.headers.authorization,
      });
      setTimeout(
        () => {
          answering.set(listingId, (answering.get(listingId) ?? 1) - 1);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        },
        Math.floor(Math.random() * 10),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    overlaps,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
