import { type CreateWebhookEndpointInput, WebhookEndpointWithSecretSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type DemoOrganization, seedDemoOrganization } from '../../../src/demo/index.js';
import {
  deleteReplacedSandboxes,
  REPLACED_SANDBOX_KEPT_MS,
  SANDBOX_RECORDS,
} from '../../../src/modules/sandbox/index.js';
import { EXIT, executeOperatorCommand } from '../../../src/operator/index.js';
import { expectBadRequest } from '../../support/errors.js';
import { type ApiResponse, client, expectStatus } from '../../support/http.js';
import type { Api } from '../../support/items.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * `sandbox reset` and `sandbox status` (test mode), through the operator commands as the operator socket runs them and
 * the API as a test key sees the result. The live workspace is the demo shop: it has records of every kind a reset
 * copies, and of the kinds it leaves behind (keys, a webhook endpoint, marketplace links, reservations, the feed).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SOURCE = z.enum(['empty', 'demo', 'live']);
const ResetJson = z
  .object({
    organization: z.object({ id: z.string().regex(UUID), slug: z.string() }).strict(),
    sandbox: z.object({ id: z.string().regex(UUID), source: SOURCE, createdAt: z.string().datetime() }).strict(),
    replaced: z.string().regex(UUID).nullable(),
    counts: z.object(Object.fromEntries(SANDBOX_RECORDS.map((kind) => [kind, z.number().int().min(0)]))).strict(),
    elapsedMs: z.number().int().min(0),
  })
  .strict();
const StatusCounts = z
  .object({
    items: z.number().int(),
    categories: z.number().int(),
    warehouses: z.number().int(),
    consignments: z.number().int(),
    invoices: z.number().int(),
    valuations: z.number().int(),
    webhookEndpoints: z.number().int(),
  })
  .strict();
const StatusJson = z
  .object({
    organization: z.object({ id: z.string().regex(UUID), slug: z.string() }).strict(),
    sandbox: z
      .object({ id: z.string().regex(UUID), source: SOURCE, lastResetAt: z.string().datetime(), counts: StatusCounts })
      .strict()
      .nullable(),
  })
  .strict();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Entry = { [key: string]: Json };

const ok = (output: { exitCode: number; stdout: string; stderr: string }) => {
  expect(output.exitCode, output.stderr).toBe(EXIT.ok);
  expect(output.stderr).toBe('');
  return output.stdout;
};

/** Every entry of a list, page after page. */
async function all(api: Api, path: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let page = 1; ; page += 1) {
    const response: ApiResponse<{ items: Entry[]; hasMore: boolean }> = await api.get(
      `${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`,
    );
    expectStatus(response, 200);
    entries.push(...response.body.items);
    if (!response.body.hasMore) return entries;
  }
}

const byKey = (key: (entry: Entry) => string) => (a: Entry, b: Entry) =>
  key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** Everything a reset from live copies, as the API shows it to `api`, each list in an order of its own data. */
async function everything(api: Api) {
  const items = (await all(api, '/items')).sort(byKey((item) => String(item.sku)));
  const valuations = await Promise.all(
    items.map(async (item) => {
      // An item's valuations come in one list (of 50 at most: the demo's items have a few).
      const response: ApiResponse<{ items: Entry[] }> = await api.get(`/items/${item.id}/valuations?limit=50`);
      expectStatus(response, 200);
      return response.body.items;
    }),
  );
  return {
    warehouses: (await all(api, '/warehouses')).sort(byKey((w) => String(w.name))),
    categories: (await all(api, '/categories')).sort(byKey((c) => String(c.name))),
    consignments: (await all(api, '/consignments')).sort(byKey((c) => String(c.number))),
    items,
    valuations: valuations.map((list) => list.sort(byKey((v) => `${v.createdAt}`))),
    invoices: (await all(api, '/invoices')).sort(byKey((i) => String(i.number))),
  };
}

/**
 * Expects `copy` to be `original` field by field, except its ids: each id of the original is a different id in the
 * copy, the same one wherever it appears (a reference to a record is the id of that record's copy), and no two ids
 * of the original share a copy. Returns the ids' map.
 */
function expectCopy(original: Json, copy: Json, ids = new Map<string, string>(), path = '$'): Map<string, string> {
  if (typeof original === 'string' && UUID.test(original)) {
    expect(copy, path).toMatch(UUID);
    expect(copy, `${path} is a copy's id, not the original's`).not.toBe(original);
    const known = ids.get(original);
    if (known === undefined) {
      expect([...ids.values()], `${path}: two originals share the copy's id`).not.toContain(copy);
      ids.set(original, copy as string);
    } else expect(copy, `${path} points at the copy of ${original}`).toBe(known);
  } else if (Array.isArray(original)) {
    expect(Array.isArray(copy) && copy.length, path).toBe(original.length);
    for (const [index, entry] of original.entries()) {
      expectCopy(entry, (copy as Json[])[index] ?? null, ids, `${path}[${index}]`);
    }
  } else if (original !== null && typeof original === 'object') {
    expect(copy !== null && typeof copy === 'object' && !Array.isArray(copy), path).toBe(true);
    expect(Object.keys(copy as Entry), path).toEqual(Object.keys(original));
    for (const [key, value] of Object.entries(original))
      expectCopy(value, (copy as Entry)[key] ?? null, ids, `${path}.${key}`);
  } else expect(copy, path).toEqual(original);
  return ids;
}

/** What the copy of an item shows: reservations are not copied, so its reserved units are available again. */
function released(item: Entry): Entry {
  const quantity = item.quantity as { available: number; sold: number; reserved: number };
  return { ...item, quantity: { ...quantity, available: quantity.available + quantity.reserved, reserved: 0 } };
}

describe('sandbox reset and status', () => {
  let server: TestServer;
  let demo: DemoOrganization;
  let live: Api;
  let test: Api;
  let testKey: string;
  const sql = () => server.database.sql;
  const run = (...argv: string[]) => executeOperatorCommand(argv, sql());
  const reset = async (...options: string[]) =>
    ResetJson.parse(JSON.parse(ok(await run('sandbox', 'reset', '--org', demo.slug, ...options, '--json'))));
  const status = async () =>
    StatusJson.parse(JSON.parse(ok(await run('sandbox', 'status', '--org', demo.slug, '--json'))));
  const me = async (api: Api) => {
    const response: ApiResponse<{ organization: { id: string } }> = await api.get('/me');
    expectStatus(response, 200);
    return response.body.organization.id;
  };
  const endpoint = async (api: Api, body: CreateWebhookEndpointInput) => {
    const response = await api.post('/webhook-endpoints', { body });
    expectStatus(response, 200);
    return WebhookEndpointWithSecretSchema.parse(response.body);
  };

  beforeAll(async () => {
    server = await startTestServer({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
    demo = await seedDemoOrganization(sql());
    live = client(server.baseUrl, demo.key.key);
    // A test key as an operator makes one: its sandbox is made (empty) with it.
    const created = JSON.parse(
      ok(
        await run(
          ...['key', 'create', '--org', demo.slug, '--user', demo.ownerEmail, '--name', 'Storefront (test)'],
          ...['--scopes', 'read,write', '--mode', 'test', '--json'],
        ),
      ),
    ) as { key: string };
    testKey = created.key;
    test = client(server.baseUrl, testKey);
    // What the live workspace has beyond the demo's records, and a reset leaves behind: a webhook endpoint, and a
    // change in its feed.
    await endpoint(live, { url: 'https://hooks.example.com/live', events: ['*'] });
    const [first] = await all(live, '/items?sort=sku');
    expectStatus(await live.patch(`/items/${String(first?.id)}`, { body: { title: 'Retitled live' } }), 200);
  }, 60_000);
  afterAll(() => server?.close());

  it('status describes the sandbox the first test key made: empty, with the default warehouse', async () => {
    const { organization, sandbox } = await status();
    expect(organization).toEqual({ id: demo.organizationId, slug: demo.slug });
    expect(sandbox).toMatchObject({
      source: 'empty',
      counts: {
        items: 0,
        categories: 0,
        warehouses: 1,
        consignments: 0,
        invoices: 0,
        valuations: 0,
        webhookEndpoints: 0,
      },
    });
    expect(sandbox?.id).toBe(await me(test));
  });

  it('reset --from live copies every listed record, field by field, under ids of its own', async () => {
    const before = await status();
    const done = await reset('--from', 'live');
    expect(done.replaced).toBe(before.sandbox?.id);
    expect(done.sandbox.source).toBe('live');
    expect(await me(test)).toBe(done.sandbox.id);
    expect(await me(live)).toBe(demo.organizationId);

    const original = await everything(live);
    const copy = await everything(test);
    expect(original.items.length).toBe(demo.counts.items);
    // The demo has some of every kind, nested ones included, so none is compared empty.
    expect(original.items.some((item) => item.category !== null && item.consignmentId !== null)).toBe(true);
    expect(original.items.some((item) => (item.quantity as { reserved: number }).reserved > 0)).toBe(true);
    expect(original.valuations.flat().length).toBeGreaterThan(0);
    expect(original.invoices.some((i) => (i.lines as Entry[]).some((l) => l.itemId !== null))).toBe(true);
    expect(original.invoices.some((i) => (i.payments as Entry[]).length > 0 && i.customer !== null)).toBe(true);
    const ids = expectCopy({ ...original, items: original.items.map(released) }, copy);

    // The counts are the records' (webhook endpoints: none in the old sandbox to carry over).
    const zones = original.warehouses.flatMap((w) => w.zones as Entry[]);
    expect(done.counts).toMatchObject({
      warehouses: original.warehouses.length,
      zones: zones.length,
      categories: original.categories.length,
      consignments: original.consignments.length,
      items: original.items.length,
      itemImages: original.items.flatMap((item) => item.images as Entry[]).length,
      valuations: original.valuations.flat().length,
      invoices: original.invoices.length,
      invoiceLines: original.invoices.flatMap((i) => i.lines as Entry[]).length,
      invoicePayments: original.invoices.flatMap((i) => i.payments as Entry[]).length,
      webhookEndpoints: 0,
    });
    expect((await status()).sandbox?.counts).toEqual({
      items: done.counts.items,
      categories: done.counts.categories,
      warehouses: done.counts.warehouses,
      consignments: done.counts.consignments,
      invoices: done.counts.invoices,
      valuations: done.counts.valuations,
      webhookEndpoints: 0,
    });

    // No id of the live workspace is one in the sandbox, and the other way round.
    const [[liveItem, sandboxItem] = []] = [...ids].filter(([id]) => id === original.items[0]?.id);
    expectStatus(await test.get(`/items/${liveItem}`), 404);
    expectStatus(await live.get(`/items/${sandboxItem}`), 404);
  });

  it('reset --from live leaves keys, webhook endpoints, marketplace links, reservations and the feed behind', async () => {
    expect((await all(live, '/webhook-endpoints')).length).toBe(1);
    expect(await all(test, '/webhook-endpoints')).toEqual([]);
    expect((await all(live, '/reservations')).length).toBeGreaterThan(0);
    expect(await all(test, '/reservations')).toEqual([]);
    const feed = async (api: Api) => {
      const response: ApiResponse<{ items: unknown[] }> = await api.get('/changes');
      expectStatus(response, 200);
      return response.body.items;
    };
    expect((await feed(live)).length).toBeGreaterThan(0);
    expect(await feed(test)).toEqual([]);
    const sandboxId = await me(test);
    // Neither listings nor keys have an API of their own to look through.
    const [rows] = await sql()<{ listings: number; keys: number; liveListings: number }[]>`
      SELECT
        (SELECT count(*)::int FROM marketplace_listings WHERE organization_id = ${sandboxId}) AS listings,
        (SELECT count(*)::int FROM api_keys WHERE organization_id = ${sandboxId}) AS keys,
        (SELECT count(*)::int FROM marketplace_listings WHERE organization_id = ${demo.organizationId}) AS "liveListings"
    `;
    expect(rows).toEqual({ listings: 0, keys: 0, liveListings: expect.any(Number) });
    expect(rows?.liveListings).toBeGreaterThan(0);
    // Each copy's ledger begins with the copy: one opening movement of the quantities it has.
    const [item] = await all(test, '/items?sort=sku');
    const movements: ApiResponse<{ items: Entry[] }> = await test.get(`/items/${String(item?.id)}/movements`);
    expectStatus(movements, 200);
    expect(movements.body.items).toEqual([
      expect.objectContaining({ kind: 'opening', delta: item?.quantity, after: item?.quantity }),
    ]);
  });

  it('a second reset replaces the first: a new sandbox, with the old one’s endpoints and none of its deliveries', async () => {
    const first = await me(test);
    const receiver = await endpoint(test, { url: 'https://hooks.example.com/sandbox', events: ['item.updated'] });
    const [item] = await all(test, '/items?sort=sku');
    expectStatus(await test.patch(`/items/${String(item?.id)}`, { body: { title: 'Retitled in test mode' } }), 200);
    const deliveries = async () => {
      const response: ApiResponse<{ items: unknown[] }> = await test.get(
        `/webhook-endpoints/${receiver.id}/deliveries`,
      );
      expectStatus(response, 200);
      return response.body.items.length;
    };
    expect(await deliveries()).toBe(1);
    // What the local marketplace simulator received for the old sandbox: its table has no cascade of its own.
    await sql()`
      INSERT INTO marketplace_local_deliveries (organization_id, job_id, marketplace_listing_id, action, quantity, sequence)
      VALUES (${first}, gen_random_uuid(), 'SIM-1', 'set_quantity', 1, 1)
    `;

    const done = await reset('--from', 'live');
    expect(done.replaced).toBe(first);
    expect(done.counts.webhookEndpoints).toBe(1);
    expect(await me(test)).toBe(done.sandbox.id);
    expect(done.sandbox.id).not.toBe(first);
    // The carried endpoint: same id and secret, as the API shows it; its deliveries were the old sandbox's changes'.
    const [carried] = await all(test, '/webhook-endpoints');
    expect(carried).toMatchObject({ id: receiver.id, url: receiver.url, events: receiver.events, enabled: true });
    const [secret] = await sql()<{ secret: string }[]>`
      SELECT secret FROM webhook_endpoints WHERE organization_id = ${done.sandbox.id} AND id = ${receiver.id}
    `;
    expect(secret?.secret).toBe(receiver.secret);
    expect(await deliveries()).toBe(0);
    // The copy is the live item again, not the one retitled in the old sandbox.
    expect((await all(test, '/items?sort=sku'))[0]?.title).toBe('Retitled live');
    expect(await status()).toMatchObject({ sandbox: { id: done.sandbox.id, source: 'live' } });
    expect((await status()).sandbox?.lastResetAt).toBe(done.sandbox.createdAt);

    // The replaced sandbox is kept for the requests still reading it, then deleted with all it held.
    const left = async () =>
      (
        await sql()<{ sandboxes: number; items: number; local: number }[]>`
          SELECT
            (SELECT count(*)::int FROM organizations WHERE sandbox_of = ${demo.organizationId}) AS sandboxes,
            (SELECT count(*)::int FROM items WHERE organization_id = ${first}) AS items,
            (SELECT count(*)::int FROM marketplace_local_deliveries WHERE organization_id = ${first}) AS local
        `
      )[0];
    const sweep = (now: Date) => sql().begin((tx) => deleteReplacedSandboxes(tx, { now }));
    // Kept: the first test key's empty sandbox, and the one this reset replaced.
    expect(await sweep(new Date())).toBe(0);
    expect(await left()).toEqual({ sandboxes: 3, items: demo.counts.items, local: 1 });
    expect(await sweep(new Date(Date.now() + REPLACED_SANDBOX_KEPT_MS + 1000))).toBe(2);
    expect(await left()).toEqual({ sandboxes: 1, items: 0, local: 0 });
  });

  it('is seen whole: a reader during a reset sees all of the old sandbox or all of the new', async () => {
    const itemIds = async () => (await all(test, '/items')).map((item) => String(item.id)).sort();
    await reset('--from', 'live');
    const old = await itemIds();
    expect(old.length).toBe(demo.counts.items);
    let finished = false;
    const resetting = reset('--from', 'demo').finally(() => {
      finished = true;
    });
    const seen: string[][] = [];
    // Readers one after another, a few at once: some of them are reading when the reset commits.
    const reader = async () => {
      while (!finished) seen.push(await itemIds());
    };
    await Promise.all([reader(), reader(), reader()]);
    await resetting;
    const now = await itemIds();
    expect(now).not.toEqual(old);
    expect(now.length).toBe(demo.counts.items);
    for (const ids of seen) expect([old, now]).toContainEqual(ids);
  });

  it('starts a fresh changes feed: a cursor of the sandbox before the reset is refused with 400, saying to restart', async () => {
    const cursor = async () => {
      const response: ApiResponse<{ cursor: string }> = await test.get('/changes/cursor');
      expectStatus(response, 200);
      return response.body.cursor;
    };
    const before = await cursor();
    const [item] = await all(test, '/items?sort=sku');
    expectStatus(await test.patch(`/items/${String(item?.id)}`, { body: { title: 'Changed before the reset' } }), 200);
    const followed: ApiResponse<{ items: unknown[] }> = await test.get(`/changes?after=${before}`);
    expectStatus(followed, 200);
    expect(followed.body.items).toHaveLength(1);

    await reset('--from', 'live');
    expectBadRequest(
      await test.get(`/changes?after=${before}`),
      ['query.after'],
      ['or to a sandbox before its reset', 'start again from a full read: take GET /changes/cursor'],
    );
    // The new sandbox's feed begins empty, and its own cursor is followed.
    const fresh: ApiResponse<{ items: unknown[] }> = await test.get(`/changes?after=${await cursor()}`);
    expectStatus(fresh, 200);
    expect(fresh.body.items).toEqual([]);
  });

  it('reset --from demo and --from empty, and the test key across them', async () => {
    const demoReset = await reset('--from', 'demo');
    expect(demoReset.sandbox.source).toBe('demo');
    expect(demoReset.counts).toMatchObject({ items: demo.counts.items, consignments: demo.counts.consignments });
    // The demo shop's records under the sandbox's own ids.
    const skus = async (api: Api) =>
      (await all(api, '/items')).map((item): [string, string] => [String(item.sku), String(item.id)]);
    const liveSkus = new Map(await skus(live));
    for (const [sku, id] of await skus(test)) {
      expect(liveSkus.has(sku), sku).toBe(true);
      expect(id).not.toBe(liveSkus.get(sku));
    }
    expect(await status()).toMatchObject({
      sandbox: { source: 'demo', counts: { items: demo.counts.items, invoices: demo.counts.invoices } },
    });

    const emptied = await reset();
    expect(emptied.sandbox.source).toBe('empty');
    expect(emptied.counts).toMatchObject({ items: 0, warehouses: 1, zones: 1, invoices: 0, webhookEndpoints: 1 });
    expect(await all(test, '/items')).toEqual([]);
    expect((await all(test, '/warehouses')).map((w) => [w.name, w.isDefault])).toEqual([['Main', true]]);
    expect(await me(test)).toBe(emptied.sandbox.id);
  });

  it('status says so of a workspace without a sandbox', async () => {
    ok(await run('org', 'create', '--name', 'No Tests Yet', '--slug', 'no-tests-yet', '--plan', 'business'));
    expect(
      StatusJson.parse(JSON.parse(ok(await run('sandbox', 'status', '--org', 'no-tests-yet', '--json')))),
    ).toMatchObject({ organization: { slug: 'no-tests-yet' }, sandbox: null });
    expect(ok(await run('sandbox', 'status', '--org', 'no-tests-yet'))).toBe(
      'no-tests-yet has no sandbox yet: its first test key makes one (key create --mode test), or sandbox reset.\n',
    );
  });

  it('refuses what it cannot do, as the other commands do', async () => {
    expect(await run('sandbox', 'reset', '--org', demo.slug, '--from', 'yesterday')).toEqual({
      exitCode: EXIT.usage,
      stdout: '',
      stderr: 'coinventory-server: invalid --from "yesterday"; must be one of empty, demo, live\n',
    });
    expect(await run('sandbox', 'status', '--org', 'no-such-shop')).toMatchObject({
      exitCode: EXIT.notFound,
      stdout: '',
    });
    // A sandbox is not an organization the commands take.
    expect(await run('sandbox', 'reset', '--org', await me(test))).toMatchObject({ exitCode: EXIT.notFound });
    const text = ok(await run('sandbox', 'status', '--org', demo.slug));
    expect(text).toMatch(new RegExp(`^Sandbox of ${demo.slug}: ${await me(test)}, from empty, last reset \\S+Z\\.\\n`));
    expect(text).toContain('\nitems              0\n');
  });
});
