import type { Change, ChangeList } from '@coinventory/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeOf, type StoredChange } from '../../../src/modules/changes/change.js';
import { metaString } from '../../support/arbitraries.js';
import { expectStatus } from '../../support/http.js';
import { createItem, freshApi } from '../../support/items.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * GET /changes splices each change's stored JSON text into the page instead of parsing it and writing it again
 * (changeText). Its bytes, and so its ETag, must be what JSON.stringify writes of the page made the other way: every
 * change read with its data parsed and mapped by changeOf. Checked over items dense in escapes, Unicode, numbers and
 * attributes, created, changed and deleted, on both databases, with pages that end the feed and pages that do not.
 */

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

const attributeValue = fc.oneof(
  metaString(0, 20),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

const item = fc.record({
  title: metaString(1, 60),
  description: fc.option(metaString(0, 80)),
  valueInCents: fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  attributes: fc.dictionary(metaString(1, 12), attributeValue, { maxKeys: 5 }),
  newTitle: fc.option(metaString(1, 60)),
  deleted: fc.boolean(),
});

/** The page as it was made before: each change's row read with its data parsed, mapped by changeOf. */
async function pageOfObjects(limit: number, body: ChangeList, types?: string[]): Promise<string> {
  const sql = ctx.server.database.sql;
  const rows = await sql<StoredChange[]>`
    SELECT id, type, object_id, occurred_at, actor, data FROM changes
    WHERE organization_id = ${ctx.organization.organizationId}
      ${types === undefined ? sql`` : sql`AND type = ANY(${types}::text[])`}
    ORDER BY position
    LIMIT ${limit}
  `;
  const items: Change[] = rows.map(changeOf);
  return JSON.stringify({ items, nextCursor: body.nextCursor, hasMore: body.hasMore });
}

describe('a page of the changes feed, written from the stored text', () => {
  it('is byte for byte JSON.stringify of the page made from parsed objects, and its ETag is theirs', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const samples = fc.sample(item, { numRuns: 25, seed: 41 });
    for (const [n, sample] of samples.entries()) {
      const created = await createItem(api, {
        sku: `FEED-TEXT-${n}`,
        title: sample.title,
        description: sample.description,
        valueInCents: sample.valueInCents,
        attributes: sample.attributes,
      });
      if (sample.newTitle !== null) {
        expectStatus(await api.patch(`/items/${created.id}`, { body: { title: sample.newTitle } }), 200);
      }
      if (sample.deleted) expectStatus(await api.delete(`/items/${created.id}`), 200);
    }

    for (const [limit, types] of [
      [100, undefined],
      [7, undefined],
      [100, ['item.deleted', 'item.updated']],
    ] as const) {
      const query = `limit=${limit}${types === undefined ? '' : `&types=${types.join(',')}`}`;
      const response = await api.get<ChangeList>(`/changes?${query}`);
      expectStatus(response, 200);
      expect(response.body.items.length, query).toBeGreaterThan(types === undefined ? 6 : 3);
      expect(response.body.hasMore, query).toBe(limit === 7);
      expect(response.text, query).toBe(await pageOfObjects(limit, response.body, types ? [...types] : undefined));
      // The ETag is the bytes' (request/etag.ts): asked again with it, the page is unchanged.
      const again = await api.get(`/changes?${query}`, {
        headers: { 'if-none-match': response.headers.get('etag') ?? '' },
      });
      expectStatus(again, 304);
    }
  });
});
