import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Coinventory, CoinventoryError, ConflictError, type Item, ItemsExport } from '../src/index.js';
import { type RunningServer, startServer, stopServer, thrown } from './support/server.js';

// Issue 19 against the real server binary (embedded database, demo organization): the export, and dry runs.
let server: RunningServer | undefined;
let client: Coinventory;

beforeAll(async () => {
  server = await startServer();
  client = new Coinventory({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await stopServer(server);
});

describe('client.items.export', () => {
  it('yields every item, oldest first, then gives the cursor to follow the changes feed from', async () => {
    const exported = client.items.export();
    expect(exported).toBeInstanceOf(ItemsExport);
    expect(exported.nextCursor).toBeUndefined();
    const items: Item[] = [];
    for await (const item of exported) items.push(item);
    const listed: Item[] = [];
    for await (const item of client.items.list({ sort: 'oldest', limit: 100 })) listed.push(item);
    expect(items).toEqual(listed);
    expect(exported.count).toBe(listed.length);
    const cursor = exported.nextCursor ?? expect.fail('no cursor after the export');
    const created = await client.items.create({ sku: `SDK-EXPORT-${randomUUID()}`, title: 'After the export' });
    const page = await client.changes.list({ after: cursor });
    expect(page.items.map((change) => [change.type, change.objectId])).toEqual([['item.created', created.id]]);
    await client.items.delete(created.id);
  });

  it('takes the list filters, is read once, and stops the request when the loop stops early', async () => {
    const ngc: Item[] = [];
    for await (const item of client.items.export({ gradingService: 'NGC' })) ngc.push(item);
    expect(ngc.length).toBeGreaterThan(0);
    expect(ngc.every((item) => item.grading.service?.toLowerCase() === 'ngc')).toBe(true);

    const exported = client.items.export();
    for await (const _ of exported) break;
    expect(exported.nextCursor).toBeUndefined();
    expect(
      await thrown(
        (async () => {
          for await (const _ of exported) break;
        })(),
      ),
    ).toBeInstanceOf(CoinventoryError);
    // The server is free again at once (on the embedded database the export held its one connection).
    expect((await client.items.list({ limit: 1 })).items).toHaveLength(1);
  });

  it('throws, rather than ending quietly, when the answer is cut short', async () => {
    const item = (await client.items.list({ limit: 1 })).items[0] ?? expect.fail('no item');
    const cut = new Coinventory({
      apiKey: 'cvk_live_x',
      baseUrl: 'https://api.example/v1',
      fetch: async () => new Response(`${JSON.stringify(item)}\n${JSON.stringify(item)}\n`, { status: 200 }),
    });
    const seen: Item[] = [];
    const error = await thrown(
      (async () => {
        for await (const entry of cut.items.export()) seen.push(entry);
      })(),
    );
    expect(error).toBeInstanceOf(CoinventoryError);
    expect(String(error)).toMatch(/cut short/);
    expect(seen).toHaveLength(2);

    // The connection dropping mid-body (short of Content-Length) is reported the same way.
    const dropped = new Coinventory({
      apiKey: 'cvk_live_x',
      baseUrl: 'https://api.example/v1',
      maxRetries: 0,
      fetch: async () => {
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) controller.error(new TypeError('terminated'));
            else controller.enqueue(new TextEncoder().encode(`${JSON.stringify(item)}\n`));
            sent = true;
          },
        });
        return new Response(body, { status: 200 });
      },
    });
    const droppedError = await thrown(
      (async () => {
        for await (const _ of dropped.items.export()) {
        }
      })(),
    );
    expect(droppedError).toBeInstanceOf(CoinventoryError);
    expect(String(droppedError)).toMatch(/cut short \(the connection ended part-way: terminated\)/);
  });
});

describe('dry runs', () => {
  it('create, update and delete answer what they would do and write nothing', async () => {
    const sku = `SDK-DRY-${randomUUID()}`;
    const wouldBe = await client.items.create({ sku, title: 'Dry' }, { dryRun: true });
    expect(wouldBe.sku).toBe(sku);
    expect((await client.items.list({ sku })).items).toEqual([]);

    const real = await client.items.create({ sku, title: 'Real' });
    expect(await thrown(client.items.create({ sku, title: 'Again' }, { dryRun: true }))).toBeInstanceOf(ConflictError);
    expect(await client.items.update(real.id, { title: 'Renamed' }, { dryRun: true })).toMatchObject({
      title: 'Renamed',
    });
    expect(await client.items.delete(real.id, { dryRun: true })).toEqual({ id: real.id, deleted: true });
    expect(await client.items.get(real.id)).toEqual(real);
    await client.items.delete(real.id);
  });
});
