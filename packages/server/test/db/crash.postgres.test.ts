import { type Item, ItemListSchema, ItemSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import type { Sql } from '../../src/db/types.js';
import { type Running, start, stop } from '../support/binary.js';
import { type CrashableCluster, startCrashableCluster, stopOnInterrupt } from '../support/crash-cluster.js';
import { type ApiResponse, call } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';

/**
 * PostgreSQL crashing under the server (`pg_ctl stop -m immediate`: no checkpoint) in the middle of concurrent item
 * writes, then recovering. Every write answered 2xx is there afterwards exactly as answered, and a create answered
 * 5xx is not. The rate limiter's tables are UNLOGGED (migration 0010), so recovery empties them: a key that had spent
 * its window before the crash gets a fresh one, which is at most one more window's worth of requests. The cluster is
 * this file's own, since it is crashed.
 */

const LIMIT = 20;
const WINDOW_SECONDS = 60;
const WRITERS = 4;
/** Each item is patched this many times by the writer that created it, one at a time: its last 2xx is its state. */
const PATCHES_PER_ITEM = 2;
/** The crash comes once this many writes were acknowledged, so that it falls among writes in full flow. */
const ACKS_BEFORE_CRASH = 80;
/** How long a server may take to answer again once PostgreSQL is back (its pool reconnects within a second or so). */
const BACK_WITHIN_MS = 20_000;

/** What a request got: its answer, or none when the connection to the server failed. */
type Outcome = ApiResponse | 'no answer';
const statusOf = (outcome: Outcome) => (outcome === 'no answer' ? outcome : outcome.status);

async function send(baseUrl: string, method: string, path: string, key: string, body?: unknown): Promise<Outcome> {
  try {
    return await call(baseUrl, method, path, { key, body });
  } catch {
    return 'no answer';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A read's answer once its server has the database back: 5xx and lost connections are retried until then. */
async function answered(request: () => Promise<Outcome>): Promise<ApiResponse> {
  const deadline = Date.now() + BACK_WITHIN_MS;
  for (;;) {
    const outcome = await request();
    if (outcome !== 'no answer' && outcome.status < 500) return outcome;
    if (Date.now() > deadline) throw new Error(`still ${statusOf(outcome)} after ${BACK_WITHIN_MS} ms`);
    await sleep(50);
  }
}

const exited = (running: Running) => running.child.exitCode !== null || running.child.signalCode !== null;

describe('PostgreSQL crashes under concurrent writes and recovers', () => {
  let cluster: CrashableCluster | undefined;
  let sql: Sql;
  let organization: TestOrganization;
  const started: { running: Running; forget: () => void }[] = [];
  const writeEnv = { RATE_LIMIT_MAX_REQUESTS: '100000' };
  const limitEnv = { RATE_LIMIT_MAX_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };
  /** Never limits the writers. */
  let writeServer: Running;
  /** LIMIT requests per WINDOW_SECONDS, for the limiter's key. */
  let limitServer: Running;

  const startServer = async (env: Record<string, string>) => {
    const running = await start({ DATABASE_URL: cluster?.url ?? '', SYNC_WORKER: 'off', ...env });
    started.push({ running, forget: stopOnInterrupt(() => running.child.kill('SIGKILL')) });
    return running;
  };

  beforeAll(async () => {
    cluster = await startCrashableCluster();
    [writeServer, limitServer] = await Promise.all([startServer(writeEnv), startServer(limitEnv)]);
    sql = createSql(cluster.url, { max: 1, statementTimeoutMs: 0 });
    organization = await createTestOrganization(sql);
  });

  afterAll(async () => {
    await Promise.all(started.map(({ running }) => (exited(running) ? undefined : stop(running))));
    for (const { forget } of started) forget();
    await sql?.end({ timeout: 1 });
    cluster?.stop();
  });

  it("has the rate limiter's tables unlogged, and every other table logged", async () => {
    const rows = await sql<{ relname: string; relpersistence: string }[]>`
      SELECT relname, relpersistence FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
        AND (relpersistence <> 'p' OR relname = 'items')
      ORDER BY relname
    `;
    expect(rows).toEqual([
      { relname: 'items', relpersistence: 'p' },
      { relname: 'rate_limit_slots', relpersistence: 'u' },
      { relname: 'rate_limit_state', relpersistence: 'u' },
    ]);
  });

  describe('after a crash in the middle of the writes', () => {
    /** Each item as its last 2xx write answered it. */
    const acknowledged = new Map<string, Item>();
    let acknowledgedWrites = 0;
    const failedCreates: { sku: string; status: number | 'no answer' }[] = [];
    const failedPatches: { id: string; status: number | 'no answer' }[] = [];
    /** Answers no writer should get: 4xx, and 5xx or lost connections before the crash. */
    const unexpected: string[] = [];
    /** Servers whose process ended when PostgreSQL crashed, with the end of their stderr; each was started again. */
    const died: string[] = [];
    let crashedAt = Number.POSITIVE_INFINITY;
    /** Requests of the limiter's key admitted right after the recovery, and the status of the first one refused. */
    const limiterAfterCrash = { admitted: 0, refusedWith: 0 };

    /** One client: creates items and patches each, a request at a time, until a request fails. */
    const writer = async (baseUrl: string, writerNumber: number) => {
      /** True when the write was acknowledged; otherwise the failure is noted and the writer stops. */
      const settle = (what: string, outcome: Outcome, onFailure: (status: number | 'no answer') => void) => {
        const status = statusOf(outcome);
        if (status === 200) return true;
        if (status !== 'no answer' && status < 500) unexpected.push(`${what}: ${status}`);
        else if (Date.now() < crashedAt) unexpected.push(`${what}: ${status} before the crash`);
        else onFailure(status);
        return false;
      };
      for (let n = 0; ; n++) {
        const sku = `CRASH-${writerNumber}-${n}`;
        const body = { sku, title: `Crash ${sku}`, quantity: 1 };
        const created = await send(baseUrl, 'POST', '/items', organization.key, body);
        if (!settle(`create ${sku}`, created, (status) => failedCreates.push({ sku, status }))) return;
        const item = ItemSchema.parse((created as ApiResponse).body);
        acknowledged.set(item.id, item);
        acknowledgedWrites += 1;
        for (let patch = 1; patch <= PATCHES_PER_ITEM; patch++) {
          const quantity = 1 + patch + n;
          const patched = await send(baseUrl, 'PATCH', `/items/${item.id}`, organization.key, { quantity });
          if (!settle(`patch ${sku}`, patched, (status) => failedPatches.push({ id: item.id, status }))) return;
          acknowledged.set(item.id, ItemSchema.parse((patched as ApiResponse).body));
          acknowledgedWrites += 1;
        }
      }
    };

    /**
     * The server once it answers /readyz again. One whose process ended (unpatched, postgres.js 3.4.9 threw from a
     * timer when a connection's session died: patches/README.md) is noted and replaced, so that what the database
     * kept is still checked.
     */
    const backAfterRecovery = async (running: Running, env: Record<string, string>, name: string) => {
      const origin = running.baseUrl.replace(/\/v1$/, '');
      const deadline = Date.now() + BACK_WITHIN_MS;
      while (!exited(running) && Date.now() < deadline) {
        const ready = await send(origin, 'GET', '/readyz', '');
        if (ready !== 'no answer' && ready.status === 200) return running;
        await sleep(50);
      }
      if (!exited(running)) throw new Error(`the ${name} server did not answer /readyz within ${BACK_WITHIN_MS} ms`);
      died.push(
        `the ${name} server exited (${running.child.exitCode ?? running.child.signalCode}):\n${running.stderr().slice(-2_000)}`,
      );
      return startServer(env);
    };

    beforeAll(async () => {
      if (!cluster) throw new Error('the cluster starts in the outer beforeAll');
      const limiter = limitServer.baseUrl;
      // The limiter's key spends its whole window at once: exactly LIMIT admitted, the rest refused.
      const spent = await Promise.all(
        Array.from({ length: LIMIT + 1 }, () => send(limiter, 'GET', '/me', organization.readKey)),
      );
      expect(spent.map(statusOf).sort()).toEqual([...Array.from({ length: LIMIT }, () => 200), 429]);

      const writers = Array.from({ length: WRITERS }, (_, n) => writer(writeServer.baseUrl, n));
      // Bounded, so that writers slowed to a crawl fail the check of the count below instead of hanging here.
      const deadline = Date.now() + BACK_WITHIN_MS;
      while (acknowledgedWrites < ACKS_BEFORE_CRASH && unexpected.length === 0 && Date.now() < deadline) {
        await sleep(5);
      }
      crashedAt = Date.now();
      cluster.crash();
      // Each writer stops at its first failure, which the crash brings at once.
      await Promise.all(writers);
      cluster.recover();
      [writeServer, limitServer] = await Promise.all([
        backAfterRecovery(writeServer, writeEnv, 'write'),
        backAfterRecovery(limitServer, limitEnv, 'limit'),
      ]);

      // Counted before anything else of that key: the window it gets right after the recovery.
      while (limiterAfterCrash.admitted <= 2 * LIMIT) {
        const { status } = await answered(() => send(limitServer.baseUrl, 'GET', '/me', organization.readKey));
        if (status !== 200) {
          limiterAfterCrash.refusedWith = status;
          break;
        }
        limiterAfterCrash.admitted += 1;
      }
      console.log(
        `crash: ${acknowledgedWrites} writes acknowledged (${acknowledged.size} items); ` +
          `${failedCreates.length} creates and ${failedPatches.length} patches failed ` +
          `(${[...failedCreates, ...failedPatches].map((failed) => failed.status).join(', ')})`,
      );
      console.log(
        `after the crash a key that had spent its window made ${limiterAfterCrash.admitted} more requests ` +
          `(limit ${LIMIT} per ${WINDOW_SECONDS} s)`,
      );
    });

    it('had writes in flight when it crashed, each answered 5xx or not at all', () => {
      expect(unexpected).toEqual([]);
      expect(acknowledgedWrites).toBeGreaterThanOrEqual(ACKS_BEFORE_CRASH);
    });

    it('has every acknowledged item exactly as its last 2xx answered it', async () => {
      // Also each item whose next PATCH failed: a 5xx means nothing was committed.
      const found = await Promise.all(
        [...acknowledged.keys()].map(async (id) => {
          const response = await answered(() => send(writeServer.baseUrl, 'GET', `/items/${id}`, organization.key));
          return response.status === 200 ? ItemSchema.parse(response.body) : response.status;
        }),
      );
      expect(found).toEqual([...acknowledged.values()]);
    });

    it('has no item that a create answered 5xx would have made', async () => {
      // PostgreSQL cannot tell a client of a COMMIT it made durable just before the crash but never answered: one
      // would show here. The window is tiny: none was seen in some 300 writes failed by a crash.
      const found = await Promise.all(
        failedCreates.map(async ({ sku }) => {
          const path = `/items?sku=${encodeURIComponent(sku)}`;
          const response = await answered(() => send(writeServer.baseUrl, 'GET', path, organization.key));
          return ItemListSchema.parse(response.body).items.map((item) => item.sku);
        }),
      );
      expect(found.flat()).toEqual([]);
    });

    it('gives a key that had spent its window at most one more window', () => {
      expect(limiterAfterCrash.refusedWith).toBe(429);
      expect(limiterAfterCrash.admitted).toBeLessThanOrEqual(LIMIT);
    });

    it('keeps the server processes running through the crash', () => {
      expect(died).toEqual([]);
    });
  });
});
