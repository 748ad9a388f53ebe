import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ItemsExportEndSchema } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { readToEnd } from '../../support/changes.js';
import { requestExport } from '../../support/exports.js';
import { type ApiResponse, client, expectStatus } from '../../support/http.js';
import { serverWithOrganization } from '../../support/server.js';

// 100,000 items on PostgreSQL (the embedded database's figures are in the benchmark): the server runs in this process,
// so its heap is measured directly while the export streams through a reader that also pauses.
const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
const ITEMS = 100_000;

// Memory still in use after a full collection: what the server (and this reader) hold, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const retainedHeap = async () => {
  collect();
  // The backing stores of the Buffers a collection frees are released by a concurrent sweeper, and `external` counts
  // them until it has run: measured at once, the export's spool (about 90 MB of Buffers written to its file) still
  // showed as 18 MB retained. Wait for the sweeper, then collect again.
  await sleep(500);
  collect();
  // Buffers (what a stream holds once a string is written to it) are outside the JavaScript heap.
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

describe('GET /exports/items of 100,000 items', () => {
  it('streams them all with flat memory, and ends with a cursor that misses nothing written meanwhile', async () => {
    const { sql } = ctx.server.database;
    const organization = ctx.organization;
    await sql`
      INSERT INTO items (organization_id, sku, title, description, quantity_available, value_in_cents, grading_service,
        grade, attributes, warehouse_id, zone_id, created_at)
      SELECT ${organization.organizationId}, 'BIG-' || lpad(n::text, 6, '0'), 'Morgan dollar ' || n,
        repeat('A long description of the coin. ', 8), n % 5, n * 100, 'NGC', 'MS6' || (n % 10),
        json_build_object('year', 1878 + n % 43, 'mint', 'Philadelphia'), ${organization.defaultWarehouseId},
        ${organization.defaultZoneId}, timestamptz '2024-01-01' + n * interval '1 second'
      FROM generate_series(1, ${ITEMS}) n
    `;
    const api = client(ctx.server.baseUrl, organization.key);
    const baseline = await retainedHeap();
    let retainedMidway = Number.NaN;
    const [first] = await sql<{ id: string }[]>`
      SELECT id FROM items WHERE organization_id = ${organization.organizationId} ORDER BY created_at, id LIMIT 1
    `;
    let tail = '';
    let lastLine = '';
    let lines = 0;
    let paused = false;
    const writes: Array<Promise<ApiResponse>> = [];
    const response = await requestExport(ctx.server.baseUrl, organization.readKey, '', {
      keep: false,
      onChunk: (chunk) => {
        const parts = (tail + chunk.toString('utf8')).split('\n');
        tail = parts.pop() ?? '';
        lines += parts.length;
        lastLine = parts.at(-1) ?? lastLine;
        // Part-way through, stop reading for a while (the server must wait, not buffer) and write meanwhile.
        if (!paused && lines > ITEMS / 2) {
          paused = true;
          writes.push(api.post('/items', { body: { sku: 'BIG-DURING', title: 'Written during the export' } }));
          writes.push(api.delete(`/items/${first?.id}`));
          return (async () => {
            // Long enough for a server that did not wait for its reader to have read and buffered all the rest.
            await sleep(3_000);
            retainedMidway = (await retainedHeap()) - baseline;
          })();
        }
        return undefined;
      },
    });
    expect(response.status).toBe(200);
    expect(response.complete).toBe(true);
    expect(lines).toBe(ITEMS + 1);
    const end = ItemsExportEndSchema.parse(JSON.parse(lastLine));
    expect(end.count).toBe(ITEMS);
    // About 90 MB went through; half-way, while the reader paused, the heap held a few fetches' worth of it.
    expect(response.bytes).toBeGreaterThan(80 * 1024 * 1024);
    expect(retainedMidway).toBeLessThan(16 * 1024 * 1024);

    const [created, deleted] = await Promise.all(writes);
    expectStatus(created as ApiResponse, 200);
    expectStatus(deleted as ApiResponse, 200);
    const { changes } = await readToEnd(api, end.nextCursor);
    expect(changes.map((change) => change.type).sort()).toEqual(['item.created', 'item.deleted']);
  }, 120_000);
});

// The statement timeout bounds each fetch, not the export: one read slowly for longer than it still completes.
const timed = serverWithOrganization({
  statementTimeoutMs: 1_000,
  policy: { maxRequests: 100_000, windowSeconds: 60 },
});

describe('GET /exports/items under STATEMENT_TIMEOUT_MS', () => {
  it('completes an export read for longer than the statement timeout', async () => {
    const { sql } = timed.server.database;
    const organization = timed.organization;
    await sql.begin(async (tx) => {
      await tx`SET LOCAL statement_timeout = 0`;
      await tx`
        INSERT INTO items (organization_id, sku, title, warehouse_id, zone_id)
        SELECT ${organization.organizationId}, 'SLOW-' || n, 'Coin ' || n, ${organization.defaultWarehouseId},
          ${organization.defaultZoneId}
        FROM generate_series(1, 8000) n
      `;
    });
    const started = Date.now();
    // A reader slower than the server (socket buffers full): the export's transaction stays open for seconds.
    const response = await requestExport(timed.server.baseUrl, organization.key, '', { onChunk: () => sleep(50) });
    expect(Date.now() - started).toBeGreaterThan(2_000);
    expect(response.complete).toBe(true);
    const end = ItemsExportEndSchema.parse(JSON.parse(response.body.trimEnd().split('\n').at(-1) ?? ''));
    expect(end.count).toBe(8_000);
  });
});
