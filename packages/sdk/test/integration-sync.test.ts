import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERRORS, IDEMPOTENCY } from '@coinventory/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type Change,
  Coinventory,
  NOT_MODIFIED,
  NotFoundError,
  PreconditionFailedError,
} from '../src/index.js';
import {
  DEMO_ORGANIZATION,
  type RunningServer,
  runOperatorCommand,
  startServer,
  stopServer,
  thrown,
} from './support/server.js';

// What issue 17 added, against the real server binary on loopback with a fresh embedded database and the demo
// organization: categories, warehouses, the changes feed, Idempotency-Key and conditional requests. Well under the key's
// rate limit (120 requests a minute).
let server: RunningServer | undefined;
let client: Coinventory;

beforeAll(async () => {
  server = await startServer();
  client = new Coinventory({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await stopServer(server);
});

describe('categories and warehouses', () => {
  it('categories: list, iteration and get agree', async () => {
    const page = await client.categories.list({ limit: 100 });
    expect(page.items.length).toBeGreaterThan(0);
    const walked = [];
    for await (const category of client.categories.list({ limit: 2 })) walked.push(category);
    expect(walked).toEqual(page.items);
    const first = page.items[0] ?? expect.fail('no categories');
    expect(await client.categories.get(first.id)).toEqual(first);
    expect(await thrown(client.categories.get(randomUUID()))).toBeInstanceOf(NotFoundError);
  });

  it('warehouses: the default one first, with its zones; get agrees', async () => {
    const { items } = await client.warehouses.list();
    const first = items[0] ?? expect.fail('no warehouses');
    expect(first.isDefault).toBe(true);
    expect(items.filter((w) => w.isDefault)).toHaveLength(1);
    expect(await client.warehouses.get(first.id)).toEqual(first);
  });
});

describe('the changes feed', () => {
  it('reports a create, an update and a delete after the cursor taken before them, each once', async () => {
    const { cursor } = await client.changes.cursor();
    const created = await client.items.create({ sku: `SDK-FEED-${randomUUID()}`, title: 'Feed coin' });
    const updated = await client.items.update(created.id, { quantity: 4 });
    await client.items.delete(created.id);
    const feed = client.changes.all({ after: cursor, limit: 1 });
    const seen: Change[] = [];
    for await (const change of feed) if (change.objectId === created.id) seen.push(change);
    expect(seen.map((c) => c.type)).toEqual(['item.created', 'item.updated', 'item.deleted']);
    expect(seen.map((c) => c.data)).toEqual([created, updated, null]);
    expect(new Set(seen.map((c) => c.id)).size).toBe(3);
    // Nothing after the end: a feed resumed from the cursor it reached is empty.
    const rest = await client.changes.list({ after: feed.cursor });
    expect(rest).toMatchObject({ items: [], hasMore: false, nextCursor: feed.cursor });
  });

  it('filters by type, and pages() resumes from a stored nextCursor', async () => {
    const { cursor } = await client.changes.cursor();
    const skus = [1, 2, 3].map((n) => `SDK-PAGES-${n}-${randomUUID()}`);
    const items = [];
    for (const sku of skus) items.push(await client.items.create({ sku, title: sku }));
    for (const item of items) await client.items.update(item.id, { quantity: 9 });
    const updatedOnly = [];
    for await (const change of client.changes.all({ after: cursor, types: ['item.updated'] })) updatedOnly.push(change);
    expect(updatedOnly.map((c) => c.objectId)).toEqual(items.map((i) => i.id));

    let stored = cursor;
    const applied: string[] = [];
    for await (const page of client.changes.pages({ after: stored, limit: 2 })) {
      applied.push(...page.items.map((c) => c.id));
      stored = page.nextCursor;
      if (applied.length >= 2) break;
    }
    for await (const page of client.changes.pages({ after: stored, limit: 2 }))
      applied.push(...page.items.map((c) => c.id));
    expect(applied).toHaveLength(6);
    expect(new Set(applied).size).toBe(6);
  });

  it('follows the feed until the signal aborts, yielding a change made meanwhile', async () => {
    const { cursor } = await client.changes.cursor();
    const controller = new AbortController();
    // Polls every half second: each poll counts against the key's rate limit, and on a loaded machine the item may
    // take seconds to be created.
    const feed = client.changes.all(
      { after: cursor, follow: true, pollIntervalMs: 500 },
      { signal: controller.signal },
    );
    const sku = `SDK-FOLLOW-${randomUUID()}`;
    setTimeout(() => void client.items.create({ sku, title: 'Followed' }), 300);
    const seen: Change[] = [];
    for await (const change of feed) {
      seen.push(change);
      if (change.type === 'item.created' && change.data.sku === sku) controller.abort();
    }
    expect(seen.map((c) => c.type)).toEqual(['item.created']);
    expect(feed.cursor).not.toBe(cursor);
  });

  it("reports the valuation engine's valuations, typed, before the item.updated an applied one makes", async () => {
    const live = server ?? expect.fail('no server');
    const coin = `SDK Feed Dollar ${randomUUID()}`;
    const item = await client.items.create({
      sku: `SDK-VAL-${randomUUID()}`,
      title: `${coin} PCGS MS64`,
      gradingService: 'PCGS',
      grade: 'MS64',
      attributes: { coin },
    });
    const { cursor } = await client.changes.cursor();
    // Three comparable sales of its coin (the engine's minimum), recent enough to count; importing them values it.
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const dir = mkdtempSync(join(tmpdir(), 'coinventory-sdk-sales-'));
    const file = join(dir, 'sales.csv');
    writeFileSync(
      file,
      [
        'source,externalId,coin,gradingService,grade,priceInCents,soldAt',
        ...[30_000, 31_000, 32_000].map(
          (price, i) => `sdk_test,${coin}-${i},${coin},PCGS,MS64,${price},${daysAgo(i + 1)}`,
        ),
      ].join('\n'),
    );
    const operator = async (...args: string[]) => {
      const { code, stdout, stderr } = await runOperatorCommand(live, [...args, '--org', DEMO_ORGANIZATION]);
      expect(code, `${stdout}${stderr}`).toBe(0);
    };
    await operator('import', 'sales', file);
    await operator('valuate', '--item', item.sku, '--apply');
    rmSync(dir, { recursive: true, force: true });

    const seen: Change[] = [];
    for await (const change of client.changes.all({ after: cursor })) seen.push(change);
    const valuations = (await client.items.valuations(item.id)).items.reverse();
    const valued = await client.items.get(item.id);
    expect(valuations).toHaveLength(2);
    // The import's valuation (the organization does not apply estimates), then --apply's with its item.updated.
    expect(seen.map((change) => [change.type, change.objectId])).toEqual([
      ['valuation.created', valuations[0]?.id],
      ['valuation.created', valuations[1]?.id],
      ['item.updated', item.id],
    ]);
    const [first, applied, updated] = seen;
    if (first?.type !== 'valuation.created' || applied?.type !== 'valuation.created') {
      return expect.fail('not valuations');
    }
    expect([first.data, applied.data]).toEqual(valuations);
    expect(applied.data).toMatchObject({ itemId: item.id, basis: 'comps', estimateInCents: 31_000 });
    expect(applied.data.appliedAt).not.toBeNull();
    expect(updated?.data).toEqual(valued);
    expect(valued.valueInCents).toBe(31_000);
    // Asked for by type, the valuations alone.
    const only = [];
    for await (const change of client.changes.all({ after: cursor, types: ['valuation.created'] })) only.push(change);
    expect(only).toEqual([first, applied]);
    await client.items.delete(item.id);
  });

  it('refuses a cursor that is not one, with an issue that says to start again from a full read', async () => {
    const error = await thrown(client.changes.list({ after: 'not-a-cursor' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).issues?.[0]?.message).toMatch(/full read/);
  });
});

describe('Idempotency-Key', () => {
  it('a repeated create with the same key answers the first item again, marked as replayed', async () => {
    const key = `sdk-it-${randomUUID()}`;
    const body = { sku: `SDK-IDEM-${randomUUID()}`, title: 'Once' };
    const first = await client.items.create(body, { idempotencyKey: key }).withResponse();
    const again = await client.items.create(body, { idempotencyKey: key }).withResponse();
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get(IDEMPOTENCY.replayedHeader)).toBe('true');
    expect(first.response.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    const { items } = await client.items.list({ sku: body.sku });
    expect(items).toHaveLength(1);
    await client.items.delete(first.data.id);
  });

  it('the same key with a different request is a BadRequestError naming the header', async () => {
    const key = `sdk-it-${randomUUID()}`;
    const created = await client.items.create({ sku: `SDK-IDEM-${randomUUID()}`, title: 'A' }, { idempotencyKey: key });
    const error = await thrown(
      client.items.create({ sku: `SDK-IDEM-${randomUUID()}`, title: 'B' }, { idempotencyKey: key }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).issues?.[0]?.message).toContain(`headers.${IDEMPOTENCY.header.toLowerCase()}`);
    await client.items.delete(created.id);
  });
});

describe('conditional requests', () => {
  it('ifNoneMatch resolves to NOT_MODIFIED until the item changes; ifMatch guards a write', async () => {
    const created = await client.items.create({ sku: `SDK-ETAG-${randomUUID()}`, title: 'Versioned' });
    const { data, etag } = await client.items.get(created.id).withResponse();
    expect(data).toEqual(created);
    expect(etag).toMatch(/^"/);
    const etagValue = etag ?? expect.fail('no ETag');
    expect(await client.items.get(created.id, { ifNoneMatch: etagValue })).toBe(NOT_MODIFIED);

    const updated = await client.items.update(created.id, { quantity: 7 }, { ifMatch: etagValue }).withResponse();
    expect(updated.etag).not.toBe(etag);
    expect(await client.items.get(created.id, { ifNoneMatch: etagValue })).toEqual(updated.data);

    const stale = await thrown(client.items.update(created.id, { quantity: 1 }, { ifMatch: etagValue }));
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({
      status: 412,
      code: 'PRECONDITION_FAILED',
      message: ERRORS.PRECONDITION_FAILED.message,
    });
    expect((await client.items.get(created.id)).quantity.available).toBe(7);

    expect(await thrown(client.items.delete(created.id, { ifMatch: etagValue }))).toBeInstanceOf(
      PreconditionFailedError,
    );
    await client.items.delete(created.id, { ifMatch: updated.etag });
  });
});
