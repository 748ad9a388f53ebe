import { describe, expect, it } from 'vitest';
import { linkListing, simulatedListings } from '../../../src/modules/marketplace/operator.js';
import { client } from '../../support/http.js';
import { createItem } from '../../support/items.js';
import { createTestSandbox, type TestOrganization } from '../../support/organization.js';
import { settled } from '../../support/sync.js';
import { syncFixture } from '../../support/sync-fixture.js';

const fx = syncFixture();

/** The fixture's workspace's sandbox, with a test key; made once, by the first test that needs it. */
let sandbox: TestOrganization | undefined;
const sandboxOf = async () => {
  sandbox ??= await createTestSandbox(fx.sql(), fx.ws);
  return sandbox;
};

describe('test mode and the marketplace', () => {
  it('a test key’s quantity change goes to the simulator and never to the marketplace', async () => {
    const box = await sandboxOf();
    const api = client(fx.app.baseUrl, box.key);
    const item = await createItem(api, { sku: 'TEST-MODE-1', title: 'Morgan dollar (sandbox)', quantity: 5 });
    await linkListing(fx.sql(), { org: fx.ws.slug, mode: 'test', item: item.id, listingId: 'T-1', url: null });
    fx.inProcessWorker(fx.sql());

    await fx.patchQuantity(item.id, 1, api);
    const jobs = await settled(fx.sql(), box.organizationId, 'T-1');

    expect(jobs.map((job) => job.state)).toEqual(['done']);
    expect(fx.marketplace.calls).toEqual([]);
    const [listing, ...others] = await simulatedListings(fx.sql(), { org: fx.ws.slug, mode: 'test' });
    expect(others).toEqual([]);
    expect(listing).toMatchObject({ marketplaceListingId: 'T-1', status: 'listed', quantity: 1 });
    // The live workspace's simulator view holds nothing of the sandbox's.
    expect(await simulatedListings(fx.sql(), { org: fx.ws.slug })).toEqual([]);
  });

  it('a live key’s quantity change reaches the marketplace, while the sandbox’s listing stays off it', async () => {
    const box = await sandboxOf();
    const { itemId, listingId } = await fx.linkedItem(4, 'LIVE');
    fx.inProcessWorker(fx.sql());

    await fx.patchQuantity(itemId, 3);
    await settled(fx.sql(), fx.ws.organizationId, listingId);

    expect(fx.marketplace.calls.map((call) => [call.listingId, call.body])).toEqual([
      [listingId, { quantity: 3, sequence: 1 }],
    ]);
    expect(await simulatedListings(fx.sql(), { org: fx.ws.slug })).toEqual([]);
    // The sandbox's listing kept what the simulator was sent before, and got nothing new.
    const sandboxListings = await simulatedListings(fx.sql(), { org: fx.ws.slug, mode: 'test' });
    expect(sandboxListings.map((l) => [l.marketplaceListingId, l.deliveries])).toEqual([['T-1', 1]]);
    expect(box.mode).toBe('test');
  });
});
