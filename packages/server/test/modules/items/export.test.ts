import { setTimeout as sleep } from 'node:timers/promises';
import { csvRecord, csvRow, EXPORTS, ITEM_CSV_COLUMNS, type Item } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { ROWS_PER_FETCH } from '../../../src/modules/items/export.js';
import { readAllItems, readToEnd } from '../../support/changes.js';
import { parseNdjson, requestExport, requestHead } from '../../support/exports.js';
import { client, expectStatus } from '../../support/http.js';
import { createItem, insertItems } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

/** An organization of its own holding `count` items (more than one fetch of the export's cursor). */
async function organizationWith(count: number) {
  const organization = await createTestOrganization(ctx.server.database.sql);
  const seeds = Array.from({ length: count }, (_, i) => ({
    sku: `EXP-${String(i).padStart(5, '0')}`,
    title: i % 7 === 0 ? `Morgan dollar ${i}, "toned"` : `Coin ${i}`,
    description: i % 3 === 0 ? null : `line one\nline two ${i}`,
    gradingService: i % 2 === 0 ? 'NGC' : 'PCGS',
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
  }));
  await insertItems(ctx.server.database.sql, organization, seeds);
  return { organization, api: client(ctx.server.baseUrl, organization.key) };
}

describe('GET /exports/items', () => {
  it('streams every item as NDJSON, oldest first, ending with the count and the changes cursor of its snapshot', async () => {
    const { organization, api } = await organizationWith(ROWS_PER_FETCH * 2 + 37);
    const response = await requestExport(ctx.server.baseUrl, organization.readKey);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(`${EXPORTS.mediaTypes.ndjson}; charset=utf-8`);
    // Read whole before it is sent: its length is known (a shorter answer was cut short), and no trailers.
    expect(response.headers['transfer-encoding']).toBeUndefined();
    expect(response.headers.trailer).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(response.bytes);
    expect(response.headers.vary).toMatch(/\bAccept\b/);
    const { items, end } = parseNdjson(response.body);
    const listed = [...(await readAllItems(api)).values()];
    expect(items).toEqual(listed);
    const nextCursor = (await api.get<{ cursor: string }>('/changes/cursor')).body.cursor;
    expect(end).toEqual({ count: listed.length, nextCursor });
    // The end line's facts are in headers too.
    expect(response.headers[EXPORTS.headers.cursor.toLowerCase()]).toBe(nextCursor);
    expect(response.headers[EXPORTS.headers.count.toLowerCase()]).toBe(String(listed.length));
  });

  it('has a strong ETag of its bytes: If-None-Match gives 304 until an item changes, HEAD its headers', async () => {
    const { organization, api } = await organizationWith(30);
    const first = await requestExport(ctx.server.baseUrl, organization.key);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const cached = await requestExport(ctx.server.baseUrl, organization.key, '', {
      headers: { 'if-none-match': etag },
    });
    expect([cached.status, cached.body, cached.headers.etag]).toEqual([304, '', etag]);
    expect(cached.headers.vary).toMatch(/\bAccept\b/);
    expect(cached.headers[EXPORTS.headers.cursor.toLowerCase()]).toBe(
      first.headers[EXPORTS.headers.cursor.toLowerCase()],
    );
    // Another format is another representation, with its own ETag.
    const csv = await requestExport(ctx.server.baseUrl, organization.key, '', {
      accept: 'text/csv',
      headers: { 'if-none-match': etag },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.etag).not.toBe(etag);

    const head = await requestHead(ctx.server.baseUrl, organization.key);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(first.bytes));
    expect(head.headers.etag).toBe(etag);
    expect((await requestHead(ctx.server.baseUrl, organization.key, { 'if-none-match': etag })).status).toBe(304);

    const [item] = parseNdjson(first.body).items;
    expectStatus(await api.patch(`/items/${item?.id}`, { body: { title: 'Retitled' } }), 200);
    const changed = await requestExport(ctx.server.baseUrl, organization.key, '', {
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseNdjson(changed.body).items[0]?.title).toBe('Retitled');
  });

  it('narrows by the list filters, and answers a bad filter with the 400 the list gives', async () => {
    const { organization, api } = await organizationWith(40);
    const response = await requestExport(ctx.server.baseUrl, organization.key, '?gradingService=ngc&q=morgan');
    const { items, end } = parseNdjson(response.body);
    const listed = await api.get<{ items: Item[] }>('/items?gradingService=ngc&q=morgan&sort=oldest&limit=100');
    expect(items).toEqual(listed.body.items);
    expect(end?.count).toBe(items.length);
    expect(items.length).toBeGreaterThan(0);

    for (const query of ['?status=lost', '?page=2', '?sort=newest', '?limit=10']) {
      const refused = await api.get(`/exports/items${query}`);
      expectStatus(refused, 400);
      expect(refused.body).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });

  it('answers CSV for Accept: text/csv, in the CLI’s columns, with the count and cursor in headers', async () => {
    const { organization, api } = await organizationWith(ROWS_PER_FETCH + 3);
    const response = await requestExport(ctx.server.baseUrl, organization.key, '', { accept: 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(`${EXPORTS.mediaTypes.csv}; charset=utf-8; header=present`);
    expect(response.headers.trailer).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(response.bytes);
    const listed = [...(await readAllItems(api)).values()];
    expect(response.body).toBe(
      csvRecord(ITEM_CSV_COLUMNS) + listed.map((item) => csvRow(ITEM_CSV_COLUMNS, item)).join(''),
    );
    expect(response.headers[EXPORTS.headers.count.toLowerCase()]).toBe(String(listed.length));
    const cursor = String(response.headers[EXPORTS.headers.cursor.toLowerCase()]);
    expect((await readToEnd(api, cursor)).changes).toEqual([]);

    // Media-type parameters and weights are understood (RFC 9110 §12.5.1).
    for (const accept of [
      'text/csv; charset=utf-8',
      'text/csv;charset=UTF-8;header=present',
      'TEXT/CSV',
      `text/csv, ${EXPORTS.mediaTypes.ndjson};q=0.9`,
      `${EXPORTS.mediaTypes.ndjson};q=0.2, text/csv;q=0.8`,
      'text/*, application/json;q=0.5',
      'text/csv, */*',
    ]) {
      const other = await requestExport(ctx.server.baseUrl, organization.key, '', { accept, keep: false });
      expect(other.headers['content-type'], accept).toMatch(/^text\/csv/);
      expect(other.headers.vary, accept).toMatch(/\bAccept\b/);
    }
    // NDJSON is the default, also for a caller that asks for JSON or anything.
    for (const accept of [
      '*/*',
      'application/json',
      `${EXPORTS.mediaTypes.ndjson}, text/csv;q=0.5`,
      `${EXPORTS.mediaTypes.ndjson}; charset=utf-8, text/csv`,
      'text/csv;q=0, */*',
      'application/*, text/csv;q=0.1',
    ]) {
      const other = await requestExport(ctx.server.baseUrl, organization.key, '', { accept, keep: false });
      expect(other.headers['content-type'], accept).toMatch(/^application\/x-ndjson/);
    }
  });

  it('gives a cursor from which the feed holds every change made during the export, and none already in it', async () => {
    const { organization, api } = await organizationWith(ROWS_PER_FETCH * 3);
    const before = [...(await readAllItems(api)).values()];
    let writes: Promise<unknown> | undefined;
    let firstChunk = true;
    const written: Item[] = [];
    const response = await requestExport(ctx.server.baseUrl, organization.key, '', {
      // After the first chunk, writes are sent while the export is still being read (on the embedded database
      // they wait for its transaction; on PostgreSQL they commit during it).
      onChunk: () => {
        if (!firstChunk) return undefined;
        firstChunk = false;
        writes = (async () => {
          for (let i = 0; i < 3; i += 1)
            written.push(await createItem(api, { sku: uniqueSku('DURING'), title: 'New' }));
          for (const item of before.slice(-3)) {
            expectStatus(await api.patch(`/items/${item.id}`, { body: { title: `${item.title} (changed)` } }), 200);
          }
          for (const item of before.slice(0, 2)) expectStatus(await api.delete(`/items/${item.id}`), 200);
        })();
        return sleep(300);
      },
    });
    await writes;
    const { items, end } = parseNdjson(response.body);
    // The snapshot: as it was when the export began.
    expect(items).toEqual(before);
    if (!end) throw new Error('the export ended without its end line');
    const { changes } = await readToEnd(api, end.nextCursor);
    expect(changes.map((change) => [change.type, change.objectId])).toEqual([
      ...written.map((item) => ['item.created', item.id]),
      ...before.slice(-3).map((item) => ['item.updated', item.id]),
      ...before.slice(0, 2).map((item) => ['item.deleted', item.id]),
    ]);
  });

  it('stops reading when the caller goes away, and frees the database for the next request', async () => {
    const { organization, api } = await organizationWith(ROWS_PER_FETCH * 6);
    const controller = new AbortController();
    let chunks = 0;
    await requestExport(ctx.server.baseUrl, organization.key, '', {
      keep: false,
      signal: controller.signal,
      onChunk: () => {
        chunks += 1;
        if (chunks === 1) {
          controller.abort();
          return sleep(50);
        }
        return undefined;
      },
    }).catch((error: unknown) => {
      if (!(error instanceof Error && error.name === 'AbortError')) throw error;
    });
    // The export's transaction is gone: a write (which needs the organization's feed row, and on the embedded
    // database its one connection) goes through at once.
    const started = Date.now();
    expectStatus(await api.post('/items', { body: { sku: uniqueSku('AFTER'), title: 'After' } }), 200);
    expect(Date.now() - started).toBeLessThan(EXPORTS.stallTimeoutMs / 2);
    if (ctx.server.database.kind === 'postgres') {
      // No session is left in the export's transaction (it would hold its snapshot until the stall timeout).
      const open = async () =>
        (
          await ctx.server.database.sql<{ open: number }[]>`
            SELECT count(*)::int AS open FROM pg_stat_activity
            WHERE datname = current_database()
              AND (state LIKE 'idle in transaction%' OR (state = 'active' AND query LIKE '%ORDER BY i.created_at ASC%'
                AND pid <> pg_backend_pid()))
          `
        )[0]?.open;
      for (let tries = 0; tries < 50 && (await open()) !== 0; tries += 1) await sleep(100);
      expect(await open()).toBe(0);
    }
  });

  it('needs the read scope, and keeps to the caller’s organization', async () => {
    const { organization } = await organizationWith(5);
    const other = parseNdjson((await requestExport(ctx.server.baseUrl, ctx.organization.key)).body);
    expect(other.items.some((item) => item.sku.startsWith('EXP-'))).toBe(false);
    const mine = parseNdjson((await requestExport(ctx.server.baseUrl, organization.readKey)).body);
    expect(mine.end?.count).toBe(5);
    const anonymous = await client(ctx.server.baseUrl, null).get('/exports/items');
    expectStatus(anonymous, 401);
  });
});
