import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../../src/db/connect.js';
import type { Sql } from '../../../src/db/types.js';
import { issueApiKey } from '../../../src/modules/access/index.js';
import { type Running, runToEnd, start, stop } from '../../support/binary.js';
import { call } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';

/**
 * GET /metrics, scraped from real server processes while they serve a known load: every counter must come to what
 * was sent, from one process and from a cluster of two (whose workers the primary aggregates).
 */

const TOKEN = 'metrics-token-0123456789abcdef';
/** A small rate limit, so the load includes refusals. */
const LIMIT = 30;

let admin: Sql;
let sql: Sql;
let databaseName: string;
let single: Running;
let clustered: Running;
let organization: TestOrganization;

/** `name{labels} value` lines of the Prometheus text format, by series (labels in the order they are written). */
function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

/** The value of one series, matched by name and a subset of its labels; 0 when absent. */
function value(series: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, n] of series) {
    const brace = key.indexOf('{');
    const metric = brace === -1 ? key : key.slice(0, brace);
    if (metric !== name) continue;
    const written = brace === -1 ? '' : key.slice(brace);
    if (Object.entries(labels).every(([label, wanted]) => written.includes(`${label}="${wanted}"`))) total += n;
  }
  return total;
}

async function scrape(server: Running, token?: string) {
  const origin = new URL(server.baseUrl).origin;
  const response = await fetch(`${origin}/metrics`, {
    headers: { ...(token && { authorization: `Bearer ${token}` }), connection: 'close' },
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

beforeAll(async () => {
  admin = createSql(inject('postgresUrl'), { max: 1, statementTimeoutMs: 0 });
  databaseName = `test_${randomBytes(6).toString('hex')}`;
  await admin`CREATE DATABASE ${admin(databaseName)}`;
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${databaseName}`;
  const env = { DATABASE_URL: url.toString(), SYNC_WORKER: 'off', DATABASE_POOL_SIZE: '4' };
  const migrated = await runToEnd(['migrate'], env);
  expect(migrated.code, migrated.stderr).toBe(0);
  [single, clustered] = await Promise.all([
    start({ ...env, METRICS_TOKEN: TOKEN, RATE_LIMIT_MAX_REQUESTS: String(LIMIT) }),
    start({ ...env, WEB_CONCURRENCY: '2' }),
  ]);
  sql = createSql(url.toString(), { max: 2, statementTimeoutMs: 0 });
  organization = await createTestOrganization(sql);
}, 120_000);

afterAll(async () => {
  for (const server of [single, clustered]) if (server) await stop(server);
  await sql?.end({ timeout: 5 });
  if (databaseName) await admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`;
  await admin?.end({ timeout: 5 });
}, 60_000);

describe('GET /metrics', () => {
  it('answers only with its token when one is set, in the Prometheus text format', async () => {
    const refused = await scrape(single);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toEqual({ code: 'UNAUTHORIZED', message: 'Authorization not provided' });
    expect((await scrape(single, 'metrics-token-wrong-wrong-wrong')).status).toBe(401);
    const answered = await scrape(single, TOKEN);
    expect(answered.status).toBe(200);
    expect(answered.type).toMatch(/^text\/plain; /);
    expect(answered.type).toContain('version=0.0.4');
    const series = parse(answered.text);
    for (const name of [
      'coinventory_db_pool_max_connections',
      'coinventory_sync_oldest_pending_age_seconds',
      'coinventory_process_resident_memory_bytes',
    ]) {
      expect(
        [...series.keys()].some((key) => key.startsWith(name)),
        name,
      ).toBe(true);
    }
    expect(value(series, 'coinventory_db_pool_max_connections')).toBe(4);
    expect(value(series, 'coinventory_sync_jobs', { state: 'pending' })).toBe(0);
  });

  it('counts a load exactly: requests by route and status, refusals, failed authentications, pool use', async () => {
    const before = parse((await scrape(single, TOKEN)).text);
    const spender = (
      await issueApiKey(sql, {
        organizationId: organization.organizationId,
        createdBy: organization.ownerId,
        name: 'metrics load',
        scopes: ['read', 'write'],
      })
    ).key;
    const base = single.baseUrl;
    const load = [
      // 40 reads with one key: LIMIT admitted, the rest refused 429.
      ...Array.from({ length: 40 }, () => () => call(base, 'GET', '/items?limit=5', { key: spender })),
      ...Array.from({ length: 10 }, () => () => call(base, 'GET', '/items?limit=5')),
      ...Array.from({ length: 5 }, () => () => call(base, 'GET', '/me', { key: `cvk_live_${'0'.repeat(38)}` })),
      ...Array.from(
        { length: 5 },
        () => () => call(base, 'POST', '/items', { key: organization.readKey, body: { sku: 'NO', title: 'No' } }),
      ),
      // 5 creates: each a transaction, which waits for a pool connection first.
      ...Array.from(
        { length: 5 },
        (_, i) => () =>
          call(base, 'POST', '/items', {
            key: organization.key,
            body: { sku: `METRICS-${randomBytes(4).toString('hex')}-${i}`, title: 'Counted' },
          }),
      ),
    ];
    // Scraped while the load runs: every counter is on its way, none beyond what is sent.
    const running = Promise.all(load.map((send) => send()));
    const during = parse((await scrape(single, TOKEN)).text);
    const responses = await running;
    const after = parse((await scrape(single, TOKEN)).text);

    const statuses = responses.map((response) => response.status);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    expect(count(200)).toBe(LIMIT + 5);
    expect(count(429)).toBe(40 - LIMIT);
    expect(count(401)).toBe(15);
    expect(count(403)).toBe(5);

    const delta = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    const duringDelta = (name: string, labels: Record<string, string> = {}) =>
      value(during, name, labels) - value(before, name, labels);
    const requests = 'coinventory_http_requests_total';
    expect(delta(requests, { method: 'GET', route: '/v1/items', status: '200' })).toBe(LIMIT);
    expect(delta(requests, { method: 'GET', route: '/v1/items', status: '429' })).toBe(40 - LIMIT);
    expect(delta(requests, { method: 'GET', route: '/v1/items', status: '401' })).toBe(10);
    expect(delta(requests, { method: 'GET', route: '/v1/me', status: '401' })).toBe(5);
    expect(delta(requests, { method: 'POST', route: '/v1/items', status: '403' })).toBe(5);
    expect(delta('coinventory_http_request_duration_seconds_count', { route: '/v1/items' })).toBe(60);
    expect(delta('coinventory_rate_limit_refusals_total', { limit: 'key' })).toBe(40 - LIMIT);
    expect(delta('coinventory_authentication_failures_total', { reason: 'missing' })).toBe(10);
    expect(delta('coinventory_authentication_failures_total', { reason: 'invalid_token' })).toBe(5);
    expect(delta('coinventory_authentication_failures_total', { reason: 'insufficient_scope' })).toBe(5);
    expect(delta(requests, { method: 'POST', route: '/v1/items', status: '200' })).toBe(5);
    expect(delta('coinventory_db_transaction_wait_seconds_count')).toBeGreaterThanOrEqual(5);
    expect(value(after, 'coinventory_db_transactions_in_progress')).toBe(0);
    expect(value(after, 'coinventory_db_connections')).toBeGreaterThanOrEqual(1);
    // The scrape during the load saw part of it, never more than was sent.
    expect(duringDelta(requests, { route: '/v1/items' })).toBeLessThanOrEqual(60);
    expect(duringDelta(requests, { route: '/v1/items' })).toBeGreaterThanOrEqual(0);
    // The scrapes themselves: under /metrics, not the API, and never rate-limited.
    expect(delta(requests, { route: '/metrics', status: '200' })).toBe(2);
  });

  it("labels each route by where it is mounted: the document's /v1/openapi.json, never /v1/v1/…", async () => {
    const origin = new URL(single.baseUrl).origin;
    const before = parse((await scrape(single, TOKEN)).text);
    for (const path of ['/v1/openapi.json', '/docs', '/healthz']) {
      expect((await fetch(`${origin}${path}`)).status, path).toBe(200);
    }
    const after = parse((await scrape(single, TOKEN)).text);
    const delta = (route: string) =>
      value(after, 'coinventory_http_requests_total', { route, status: '200' }) -
      value(before, 'coinventory_http_requests_total', { route, status: '200' });
    expect(delta('/v1/openapi.json')).toBe(1);
    expect(delta('/docs')).toBe(1);
    expect(delta('/healthz')).toBe(1);
    expect([...after.keys()].filter((series) => series.includes('/v1/v1'))).toEqual([]);
  });

  it('in a cluster, every scrape shows every worker: counts add up whichever worker answers', async () => {
    const base = clustered.baseUrl;
    // A new connection per request, so the primary hands them to both workers in turn.
    const sent = 40;
    const responses = await Promise.all(
      Array.from({ length: sent }, () =>
        call(base, 'GET', '/me', { key: organization.readKey, headers: { connection: 'close' } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(sent).fill(200));
    for (let i = 0; i < 4; i += 1) {
      const series = parse((await scrape(clustered)).text);
      expect(value(series, 'coinventory_http_requests_total', { route: '/v1/me', status: '200' })).toBe(sent);
      // Gauges read from the database are the deployment's: the same in each worker, so not added up.
      expect(value(series, 'coinventory_sync_jobs', { state: 'pending' })).toBe(0);
      // Pool size sums over the workers: two processes of four connections each.
      expect(value(series, 'coinventory_db_pool_max_connections')).toBe(8);
    }
  });
});
