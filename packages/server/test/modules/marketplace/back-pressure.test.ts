import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { readGate } from '../../../src/modules/marketplace/gate.js';
import { EXIT, executeOperatorCommand } from '../../../src/operator/index.js';
import {
  capturingLogger,
  eventually,
  MARKETPLACE_BASE,
  type MarketplaceCall,
  ok,
  secondPool,
  settled,
  wait,
} from '../../support/sync.js';
import { syncFixture } from '../../support/sync-fixture.js';

/**
 * A marketplace that pushes back: its 429s and 503s pause every delivery to it, from every worker; failures in a row
 * open a circuit that probes with one request; a transient failure makes a job dead only after the give-up period.
 */

const fx = syncFixture();
/** The gate's name for the fake marketplace: the HTTP adapter's. */
const MARKETPLACE = `http ${MARKETPLACE_BASE}`;
/**
 * Requests another worker had already let through when the pause was recorded are in flight and cannot be called
 * back; they reach the marketplace within moments of its 429. After this, nothing may arrive before the time is up.
 */
const IN_FLIGHT_MS = 250;

interface Window {
  start: number;
  end: number;
}

/** The calls received inside each window, split into the ones in flight at its start and the ones sent after. */
function inside(calls: MarketplaceCall[], windows: Window[]) {
  return windows.map((window) => {
    const within = calls.filter((call) => call.receivedAt >= window.start && call.receivedAt < window.end);
    return {
      inFlight: within.filter((call) => call.receivedAt < window.start + IN_FLIGHT_MS).length,
      late: within
        .filter((call) => call.receivedAt >= window.start + IN_FLIGHT_MS)
        .map((call) => `${call.listingId} ${call.receivedAt - window.start} ms into the window`),
    };
  });
}

async function linkedItems(count: number, quantity: number) {
  const items = [];
  for (let i = 0; i < count; i += 1) items.push(await fx.linkedItem(quantity));
  return items;
}

/** Each listing settled, at its item's last quantity, with no job dead. */
async function expectInStep(items: { listingId: string }[], finalQuantity: Map<string, number>) {
  for (const { listingId } of items) {
    const jobs = await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(
      jobs.filter((job) => job.state === 'dead'),
      `dead jobs of ${listingId}`,
    ).toEqual([]);
    expect((await fx.listing(listingId))?.lastSyncedQuantity, listingId).toBe(finalQuantity.get(listingId));
  }
}

describe('a 429 or 503 with Retry-After', () => {
  it('stops every delivery to the marketplace until it has passed, across two workers', async () => {
    const items = await linkedItems(8, 50);
    const windows: Window[] = [];
    let callsSinceWindow = 0;
    fx.marketplace.behaviour = async () => {
      const now = Date.now();
      const open = windows.find((window) => now >= window.start && now < window.end);
      if (open) {
        const seconds = String(Math.ceil((open.end - now) / 1000));
        return HttpResponse.text('still too many requests', { status: 429, headers: { 'Retry-After': seconds } });
      }
      callsSinceWindow += 1;
      // Twice: once traffic flows, and again a few deliveries after the first pause ended.
      if (windows.length < 2 && callsSinceWindow >= 6) {
        callsSinceWindow = 0;
        windows.push({ start: now, end: now + 2000 });
        return HttpResponse.text('too many requests', { status: 429, headers: { 'Retry-After': '2' } });
      }
      await wait(5);
      return ok();
    };
    const other = await secondPool(fx.database);
    try {
      fx.worker(fx.sql(), { concurrency: 3 });
      fx.worker(other.sql, { concurrency: 3 });
      // Changes keep coming, to every listing in turn, until both pauses have passed: about 12 a second, from three
      // keys, each far from the API's own rate limit.
      const writers = [fx.api, ...(await Promise.all(['writer 2', 'writer 3'].map((name) => fx.client(name))))];
      const finalQuantity = new Map<string, number>();
      const deadline = Date.now() + 30_000;
      for (let n = 0; ; n += 1) {
        const last = windows[1];
        if ((last && Date.now() > last.end + 300) || Date.now() > deadline) break;
        const item = items[n % items.length];
        if (!item) throw new Error('no item');
        await fx.patchQuantity(item.itemId, 100 + n, writers[n % writers.length]);
        finalQuantity.set(item.listingId, 100 + n);
        await wait(80);
      }
      expect(windows).toHaveLength(2);
      await expectInStep(items, finalQuantity);
    } finally {
      await fx.stopWorkers();
      await other.end();
    }

    const seen = inside(fx.marketplace.calls, windows);
    console.info(
      `429 Retry-After 2, two workers: ${fx.marketplace.calls.length} calls; inside each window: ${seen
        .map((window) => `${window.inFlight} in flight at its start, ${window.late.length} after`)
        .join('; ')}`,
    );
    expect(seen.map((window) => window.late)).toEqual([[], []]);
    // Deliveries went on after each pause.
    for (const window of windows) expect(fx.marketplace.calls.some((call) => call.receivedAt >= window.end)).toBe(true);
  });

  it('a 503 with Retry-After pauses the others the same way', async () => {
    const items = await linkedItems(4, 20);
    let window: Window | undefined;
    fx.marketplace.behaviour = () => {
      if (window) return ok();
      const now = Date.now();
      window = { start: now, end: now + 1000 };
      return HttpResponse.text('maintenance', { status: 503, headers: { 'Retry-After': '1' } });
    };
    fx.inProcessWorker(fx.sql(), { concurrency: 1 });
    const finalQuantity = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      await fx.patchQuantity(item.itemId, 30 + i);
      finalQuantity.set(item.listingId, 30 + i);
    }
    await expectInStep(items, finalQuantity);
    if (!window) throw new Error('no 503 was answered');
    expect(inside(fx.marketplace.calls, [window]).map((seen) => seen.late)).toEqual([[]]);
    expect(fx.marketplace.calls.length).toBe(items.length + 1);
  });
});

describe('failures in a row', () => {
  it('open the circuit: one probe per open period, then every listing is delivered', async () => {
    const items = await linkedItems(6, 9);
    let up = false;
    fx.marketplace.behaviour = () => (up ? ok() : HttpResponse.text('bad gateway', { status: 502 }));
    const { logger, lines } = capturingLogger();
    fx.worker(fx.sql(), { logger, circuitFailures: 3, circuitOpenMs: 300, maxDelayMs: 1200, concurrency: 4 });
    const finalQuantity = new Map<string, number>();
    for (const [i, item] of items.entries()) {
      await fx.patchQuantity(item.itemId, i + 1);
      finalQuantity.set(item.listingId, i + 1);
    }
    const opened = await eventually(
      () => readGate(fx.sql(), MARKETPLACE),
      (gate) => gate?.circuit === 'open',
      { what: 'the circuit to open' },
    );
    const openedAt = opened?.openedAt?.getTime() ?? 0;
    await wait(2_000);
    // After the requests in flight when it opened: only probes, one at a time, each an open period after the last.
    const probes = fx.marketplace.calls.filter((call) => call.receivedAt > openedAt + IN_FLIGHT_MS);
    const gaps = probes.slice(1).map((call, i) => call.receivedAt - (probes[i]?.receivedAt ?? 0));
    console.info(`circuit open: ${probes.length} probes in 2 s, ${gaps.join(', ')} ms apart`);
    expect(probes.length).toBeGreaterThanOrEqual(1);
    expect(probes.length).toBeLessThanOrEqual(4);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(290);
    expect(lines.some((line) => line.msg === 'marketplace circuit opened' && line.level === 40)).toBe(true);
    // The operator sees it.
    const status = await executeOperatorCommand(['sync', 'status', '--org', fx.ws.slug], fx.sql());
    expect(status.stdout).toMatch(
      /^Marketplace http https:\/\/marketplace\.test\/api: circuit open since \S+ \([3-9] failures in a row\); (next probe after \S+|probing)\. Last: circuit open after .*HTTP 502 bad gateway\.$/m,
    );

    up = true;
    await expectInStep(items, finalQuantity);
    expect(await readGate(fx.sql(), MARKETPLACE)).toMatchObject({ circuit: 'closed', consecutiveFailures: 0 });
    const after = await executeOperatorCommand(['sync', 'status', '--org', fx.ws.slug], fx.sql());
    expect(after.stdout).toContain('Marketplace http https://marketplace.test/api: delivering.');
    expect(lines.some((line) => line.msg === 'marketplace circuit closed: the probe succeeded')).toBe(true);
  });
});

describe('the give-up period', () => {
  /**
   * Half an hour passes for the jobs waiting and the marketplace's gate: each job was queued, and each run of
   * failures began, 30 minutes earlier than it did.
   */
  const thirtyMinutesPass = async () => {
    await fx.sql()`
      UPDATE marketplace_sync_jobs
      SET failing_since = failing_since - interval '30 minutes', created_at = created_at - interval '30 minutes'
      WHERE organization_id = ${fx.ws.organizationId} AND state = 'pending'
    `;
    await fx.sql()`UPDATE marketplace_gates SET opened_at = opened_at - interval '30 minutes'`;
  };

  it('a 30-minute outage ends with every listing correct and no dead job (24 hours by default)', async () => {
    const items = await linkedItems(5, 40);
    let up = false;
    fx.marketplace.behaviour = () => (up ? ok() : HttpResponse.error());
    const { logger, lines } = capturingLogger();
    fx.worker(fx.sql(), { logger, giveUpMs: 24 * 3600_000, circuitOpenMs: 100, maxDelayMs: 200 });
    const finalQuantity = new Map<string, number>();
    for (let round = 1; round <= 3; round += 1) {
      for (const [i, item] of items.entries()) {
        await fx.patchQuantity(item.itemId, round * 10 + i);
        finalQuantity.set(item.listingId, round * 10 + i);
      }
    }
    await eventually(
      () => readGate(fx.sql(), MARKETPLACE),
      (gate) => gate?.circuit === 'open',
      { what: 'the circuit to open' },
    );
    await thirtyMinutesPass();
    // The outage goes on past the half hour: more attempts fail (the probes), none of them gives a job up.
    const before = fx.marketplace.calls.length;
    await eventually(
      async () => fx.marketplace.calls.length,
      (count) => count >= before + 3,
      { what: 'three more failed attempts' },
    );
    // Every listing has waited more than half an hour for its change, with attempts failing all along.
    const [waiting] = await fx.sql()<{ minutes: number; failed: number }[]>`
      SELECT min(extract(epoch FROM now() - created_at) / 60)::float8 AS minutes,
             count(*) FILTER (WHERE failing_since IS NOT NULL)::int AS failed
      FROM marketplace_sync_jobs WHERE organization_id = ${fx.ws.organizationId} AND state = 'pending'
    `;
    expect(waiting?.minutes).toBeGreaterThanOrEqual(30);
    expect(waiting?.failed).toBeGreaterThanOrEqual(1);

    up = true;
    await expectInStep(items, finalQuantity);
    expect(lines.filter((line) => line.msg === 'sync job dead')).toEqual([]);
  });

  it('once passed, the next transient failure makes the job dead: logged at error level, counted by sync status', async () => {
    const [item] = await linkedItems(1, 3);
    if (!item) throw new Error('no item');
    fx.marketplace.behaviour = () => HttpResponse.text('upstream timeout', { status: 504 });
    const { logger, lines } = capturingLogger();
    // 20 minutes, and no circuit: this job's own attempts are what the test watches.
    fx.worker(fx.sql(), { logger, giveUpMs: 20 * 60_000, circuitFailures: 1_000 });
    await fx.patchQuantity(item.itemId, 2);
    await eventually(
      async () => fx.marketplace.calls.length,
      (count) => count >= 3,
      { what: 'three failed attempts' },
    );
    expect(fx.onlyJob(await fx.jobs(item.listingId)).state).toBe('pending');
    await thirtyMinutesPass();
    const [dead] = await settled(fx.sql(), fx.ws.organizationId, item.listingId);
    expect(dead).toMatchObject({ state: 'dead' });

    const error = `PUT /listings/${item.listingId}/quantity: HTTP 504 upstream timeout`;
    const deaths = lines.filter((line) => line.msg === 'sync job dead');
    expect(deaths).toEqual([
      expect.objectContaining({
        level: 50,
        listing: item.listingId,
        jobId: dead?.id,
        error,
        reason: 'still failing after the give-up period',
      }),
    ]);
    const status = await executeOperatorCommand(['sync', 'status', '--org', fx.ws.slug, '--json'], fx.sql());
    expect(status.exitCode).toBe(EXIT.ok);
    const parsed = JSON.parse(status.stdout) as { counts: { dead: number }; stale: { marketplaceListingId: string }[] };
    expect(parsed.counts.dead).toBeGreaterThanOrEqual(1);
    expect(parsed.stale.map((job) => job.marketplaceListingId)).toContain(item.listingId);
  });
});
