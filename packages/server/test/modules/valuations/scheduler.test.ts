import { setTimeout as sleep } from 'node:timers/promises';
import { ChangeListSchema, ValuationListSchema } from '@coinventory/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { identityOf, startValuationScheduler } from '../../../src/modules/valuations/index.js';
import { EXIT, executeOperatorCommand } from '../../../src/operator/index.js';
import type { PollingLoop } from '../../../src/polling-loop.js';
import { type Api, createItem, freshApi, getItem } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { serverWithOrganization } from '../../support/server.js';
import { testLogger } from '../../support/sync.js';

/**
 * Scheduled valuations (`valuation policy --every-hours N`): a due organization has every item valued again by one
 * worker, applied only under its policy; an organization without a schedule is never touched.
 */

const COIN = 'Scheduled Test Dollar';

describe('the valuation scheduler, on the suite’s database', () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const run = (...argv: string[]) => executeOperatorCommand(argv, sql());
  let schedulers: PollingLoop[] = [];
  afterEach(async () => {
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    schedulers = [];
  });
  const startScheduler = () => {
    const scheduler = startValuationScheduler({ sql: sql(), logger: testLogger(), pollMs: 20 });
    schedulers.push(scheduler);
    return scheduler;
  };

  /** A sale of the coin, `daysAgo` days ago. */
  const addSale = async (ws: TestOrganization, externalId: string, price: number, daysAgo: number) => {
    const soldAt = new Date(Date.now() - daysAgo * 86_400_000);
    await sql()`
      INSERT INTO comparable_sales (organization_id, source, external_id, coin, coin_identity, grading_service, grade,
        price_in_cents, sold_at, sold_at_text)
      VALUES (${ws.organizationId}, 'test', ${externalId}, ${COIN}, ${identityOf(COIN)}, 'NGC', 'MS63', ${price},
        ${soldAt}, ${soldAt.toISOString().slice(0, 10)})
    `;
  };

  /** An organization with one item and three sales of its coin, 10, 20 and 30 days old: an estimate of $200.00. */
  async function valuedOrganization(): Promise<{ ws: TestOrganization; api: Api; itemId: string }> {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    const item = await createItem(api, { sku: 'STD-63', title: COIN, gradingService: 'NGC', grade: 'MS63' });
    for (const [n, price] of [10_000, 20_000, 30_000].entries()) await addSale(ws, String(n), price, (n + 1) * 10);
    return { ws, api, itemId: item.id };
  }

  const lastRunAt = async (ws: TestOrganization): Promise<string> =>
    JSON.parse((await run('valuation', 'policy', '--org', ws.slug, '--json')).stdout).lastRunAt;
  const moveLastRunBack = (ws: TestOrganization) => sql()`
    UPDATE valuation_policies SET last_run_at = last_run_at - interval '6 hours'
    WHERE organization_id = ${ws.organizationId}
  `;

  const valuationCount = async (api: Api, itemId: string) =>
    ValuationListSchema.parse((await api.get(`/items/${itemId}/valuations`)).body).items.length;

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(25);
    }
  }

  it('values every item of an organization when its schedule is due, once per period', async () => {
    const { ws, api, itemId } = await valuedOrganization();
    const unscheduled = await valuedOrganization();
    const set = await run('valuation', 'policy', '--org', ws.slug, '--every-hours', '6');
    expect(set.exitCode, set.stderr).toBe(EXIT.ok);
    expect(set.stdout).toBe(
      [
        `Valuation policy of ${ws.slug}:`,
        '  estimates become item values: no (only valuate --apply)',
        '  every item valued again: every 6 hours',
        '  last scheduled run: never',
        '',
      ].join('\n'),
    );

    const scheduler = startScheduler();
    await until(async () => (await valuationCount(api, itemId)) === 1, 'the scheduled valuation');
    // Not again within the period, however often the worker looks; the organization without a schedule never.
    await sleep(300);
    expect(await valuationCount(api, itemId)).toBe(1);
    expect(await valuationCount(unscheduled.api, unscheduled.itemId)).toBe(0);
    expect((await getItem(api, itemId)).valueInCents).toBe(0);
    const shown = JSON.parse((await run('valuation', 'policy', '--org', ws.slug, '--json')).stdout);
    expect(shown).toMatchObject({ apply: false, everyHours: 6, lastRunAt: expect.any(String) });

    // Six hours later (the last run moved back), it runs again: with nothing new to value from, the valuation it
    // made still stands and nothing is recorded; after a new sale, the item gets a new one.
    const first = await lastRunAt(ws);
    await moveLastRunBack(ws);
    scheduler.kick();
    await until(async () => (await lastRunAt(ws)) > first, 'the second scheduled run');
    expect(await valuationCount(api, itemId)).toBe(1);
    await addSale(ws, 'new', 40_000, 5);
    await moveLastRunBack(ws);
    scheduler.kick();
    await until(async () => (await valuationCount(api, itemId)) === 2, 'the third scheduled run, after a new sale');
  });

  it('applies the estimates when the policy says so, as a PATCH would', async () => {
    const { ws, api, itemId } = await valuedOrganization();
    const cursor = ((await api.get('/changes/cursor')).body as { cursor: string }).cursor;
    expect((await run('valuation', 'policy', '--org', ws.slug, '--apply', 'on', '--every-hours', '1')).exitCode).toBe(
      EXIT.ok,
    );
    startScheduler();
    await until(async () => (await getItem(api, itemId)).valueInCents === 20_000, 'the applied estimate');
    const changes = ChangeListSchema.parse((await api.get(`/changes?after=${cursor}`)).body);
    expect(changes.items.map((change) => change.type)).toEqual(['valuation.created', 'item.updated']);
    // Valued again with nothing new, the applied valuation stands.
    expect((await run('valuate', '--org', ws.slug, '--all')).stdout).toBe(
      `0 items valued in ${ws.slug}; 1 unchanged since their latest valuation (STD-63).\n`,
    );
    // The policy also applies what valuate runs without --apply.
    await addSale(ws, 'new', 40_000, 5);
    const output = await run('valuate', '--org', ws.slug, '--all');
    expect(output.stdout).toContain('STD-63  comps  $250.00   ');
    expect(output.stdout).toMatch(/yes\n/);
    expect((await getItem(api, itemId)).valueInCents).toBe(25_000);
  });

  it('leaves an organization another worker holds until its lease lapses', async () => {
    const { ws, api, itemId } = await valuedOrganization();
    await run('valuation', 'policy', '--org', ws.slug, '--every-hours', '1');
    await sql()`
      UPDATE valuation_policies SET lease_owner = 'another process', lease_until = now() + interval '2 seconds'
      WHERE organization_id = ${ws.organizationId}
    `;
    startScheduler();
    await sleep(500);
    expect(await valuationCount(api, itemId)).toBe(0);
    await until(async () => (await valuationCount(api, itemId)) === 1, 'the run after the lease lapsed');
  });

  it('refuses a policy it cannot keep, naming the option', async () => {
    const ws = await createTestOrganization(sql());
    for (const [argv, message] of [
      [['--every-hours', '0'], 'invalid --every-hours "0"; must be from 1 to 8760 hours, or off'],
      [['--every-hours', 'daily'], 'invalid --every-hours "daily"; must be a number of hours from 1 to 8760, or off'],
      [['--apply', 'yes'], 'invalid --apply "yes"; must be on or off'],
    ] as const) {
      const output = await run('valuation', 'policy', '--org', ws.slug, ...argv);
      expect(output.exitCode).toBe(EXIT.usage);
      expect(output.stderr).toContain(message);
    }
    const off = JSON.parse(
      (await run('valuation', 'policy', '--org', ws.slug, '--every-hours', 'off', '--json')).stdout,
    );
    expect(off).toMatchObject({ apply: false, everyHours: null, lastRunAt: null });
  });
});
