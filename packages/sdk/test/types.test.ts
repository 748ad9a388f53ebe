import type { IncomingHttpHeaders } from 'node:http';
import type * as Contract from '@coinventory/contract';
import type { ErrorCode, ItemSort, ItemStatus } from '@coinventory/contract/constants';
import { describe, expectTypeOf, it } from 'vitest';
import {
  APIError,
  type APIPromise,
  type APIResponse,
  type Change,
  type ChangeFeed,
  type ChangeType,
  Coinventory,
  type CollectedItems,
  type ConditionalGetOptions,
  type Consignment,
  type ConsignmentCreatedChange,
  type ConsignmentUpdatedChange,
  type Invoice,
  type InvoiceCreatedChange,
  type InvoiceUpdatedChange,
  type Item,
  type ItemCreatedChange,
  type ItemDeletedChange,
  Items,
  type ItemUpdatedChange,
  type KeyMode,
  NOT_MODIFIED,
  type NotModified,
  type Page,
  type PagePromise,
  RateLimitError,
  type RequestOptions,
  type Reservation,
  type ReservationCommittedChange,
  type ReservationCreatedChange,
  type ReservationExpiredChange,
  type ReservationReleasedChange,
  type Valuation,
  type ValuationCreatedChange,
  verifyWebhook,
} from '../src/index.js';

// Type-level tests: `tsc --noEmit` (the typecheck script) fails when one breaks, including an unused
// `@ts-expect-error`. The functions below are never called; only their types matter.
const client = new Coinventory({ apiKey: 'cvk_live_x', fetch: async () => Response.json({}) });

describe('types come from the contract', () => {
  it('returns the contract types', () => {
    expectTypeOf<Awaited<ReturnType<typeof client.me>>>().toEqualTypeOf<Contract.Me>();
    expectTypeOf<Awaited<ReturnType<typeof client.items.get>>>().toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.create).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.update).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.delete).returns.resolves.toEqualTypeOf<Contract.DeletedItem>();
    expectTypeOf<Awaited<ReturnType<typeof client.items.valuations>>>().toEqualTypeOf<Contract.ValuationList>();
    expectTypeOf<Awaited<ReturnType<typeof client.consignments.get>>>().toEqualTypeOf<Contract.Consignment>();
    expectTypeOf<Awaited<ReturnType<typeof client.invoices.get>>>().toEqualTypeOf<Contract.Invoice>();
    expectTypeOf(client.items.list).returns.toEqualTypeOf<PagePromise<Contract.Item, Contract.ListItemsParams>>();
    expectTypeOf<Item>().toEqualTypeOf<Contract.Item>();
  });

  it('types the webhook endpoints and what a verified delivery is', () => {
    const endpoints = client.webhookEndpoints;
    expectTypeOf(endpoints.create).returns.resolves.toEqualTypeOf<Contract.WebhookEndpointWithSecret>();
    expectTypeOf(endpoints.create).parameter(0).toEqualTypeOf<Contract.CreateWebhookEndpointInput>();
    expectTypeOf(endpoints.update).parameter(1).toEqualTypeOf<Contract.UpdateWebhookEndpointInput>();
    expectTypeOf<Awaited<ReturnType<typeof endpoints.get>>>().toEqualTypeOf<Contract.WebhookEndpoint>();
    expectTypeOf(endpoints.rotateSecret).returns.resolves.toEqualTypeOf<Contract.WebhookEndpointWithSecret>();
    expectTypeOf(endpoints.deliveries).returns.toEqualTypeOf<
      PagePromise<Contract.WebhookDelivery, Contract.ListWebhookDeliveriesParams>
    >();
    expectTypeOf(endpoints.replay).returns.resolves.toEqualTypeOf<Contract.WebhookReplay>();
    expectTypeOf(endpoints.test).returns.resolves.toEqualTypeOf<Contract.WebhookTestResult>();
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<Contract.WebhookEvent>();
    // Node's request headers as they are, and a fetch Request's.
    const _node = (headers: IncomingHttpHeaders, body: Buffer) => verifyWebhook(body, headers, 'whsec_x');
    const _fetch = async (request: Request) => verifyWebhook(await request.text(), request.headers, 'whsec_x');
    // @ts-expect-error: a parsed body cannot be verified
    const _parsed = (body: object) => verifyWebhook(body, {}, 'whsec_x');
    // An endpoint subscribes to any change type (or '*'); a delivery narrows by type as a feed's change does.
    const _subscribe = () => {
      endpoints.create({ url: 'https://shop.example/hooks', events: ['valuation.created', 'invoice.updated'] });
      // @ts-expect-error: not a change type
      endpoints.create({ url: 'https://shop.example/hooks', events: ['valuation.updated'] });
    };
    const _receive = async (body: string) => {
      const event = await verifyWebhook(body, {}, 'whsec_x');
      if (event.type === 'valuation.created') expectTypeOf(event.data).toEqualTypeOf<Valuation>();
      if (event.type === 'consignment.updated') expectTypeOf(event.data).toEqualTypeOf<Consignment>();
      if (event.type === 'ping') expectTypeOf(event.data).toEqualTypeOf<null>();
    };
  });

  it("types the key's mode, which is read-only", () => {
    expectTypeOf(client.mode).toEqualTypeOf<KeyMode>();
    expectTypeOf<KeyMode>().toEqualTypeOf<'live' | 'test'>();
    // @ts-expect-error: the mode follows from the key; it cannot be set
    const _set = () => (client.mode = 'test');
  });

  it('takes the contract inputs, with autocomplete for statuses and sorts', () => {
    expectTypeOf(client.items.list).parameter(0).toEqualTypeOf<Contract.ListItemsParams | undefined>();
    expectTypeOf(client.items.create).parameter(0).toEqualTypeOf<Contract.CreateItemInput>();
    expectTypeOf(client.items.update).parameter(1).toEqualTypeOf<Contract.UpdateItemInput>();
    expectTypeOf<NonNullable<Contract.ListItemsParams['status']>>().toEqualTypeOf<ItemStatus>();
    expectTypeOf<NonNullable<Contract.ListItemsParams['sort']>>().toEqualTypeOf<ItemSort>();
  });

  it('refuses what the API would refuse', () => {
    // @ts-expect-error: not an item status
    const _status = () => client.items.list({ status: 'lost' });
    // @ts-expect-error: not an item sort
    const _sort = () => client.items.list({ sort: 'price' });
    // @ts-expect-error: invoices have no `value_desc` sort
    const _invoiceSort = () => client.invoices.list({ sort: 'value_desc' });
    // @ts-expect-error: `title` is required
    const _create = () => client.items.create({ sku: 'S' });
    // @ts-expect-error: not a field of an item
    const _unknown = () => client.items.update('id', { colour: 'red' });
    // @ts-expect-error: items.get needs its path value
    const _params = () => client.request('items.get', {});
    const _ok = () => client.request<Contract.Me, 'me'>('me', {});
  });
});

describe('adjustments, movements and reservations', () => {
  it('type each call by the contract', () => {
    const reservations = client.reservations;
    expectTypeOf(client.items.adjust).parameter(1).toEqualTypeOf<Contract.AdjustItemInput>();
    expectTypeOf(client.items.adjust).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.movements).returns.toEqualTypeOf<
      PagePromise<Contract.Movement, Contract.ListMovementsParams>
    >();
    expectTypeOf(reservations.create).parameter(1).toEqualTypeOf<Contract.CreateReservationInput>();
    expectTypeOf(reservations.create).returns.resolves.toEqualTypeOf<Contract.Reservation>();
    expectTypeOf<Awaited<ReturnType<typeof reservations.get>>>().toEqualTypeOf<Contract.Reservation>();
    expectTypeOf(reservations.list).returns.toEqualTypeOf<
      PagePromise<Contract.Reservation, Contract.ListReservationsParams>
    >();
    expectTypeOf(reservations.commit).returns.resolves.toEqualTypeOf<Contract.Reservation>();
    expectTypeOf(reservations.release).returns.resolves.toEqualTypeOf<Contract.Reservation>();
  });

  it('refuses what the API would refuse, and takes ifMatch only where it applies', () => {
    const _calls = () => {
      client.items.adjust('id', { available: -1, sold: 1, reason: 'sale' }, { ifMatch: '"e"', dryRun: true });
      // @ts-expect-error: not an adjustment reason
      client.items.adjust('id', { available: -1, reason: 'stolen' });
      // @ts-expect-error: the reason is required
      client.items.adjust('id', { available: -1 });
      client.reservations.create('item', { quantity: 1, reference: 'WEB-1' }, { idempotencyKey: 'k', dryRun: true });
      client.reservations.list({ status: 'held', itemId: 'item' });
      // @ts-expect-error: not a reservation status
      client.reservations.list({ status: 'cancelled' });
      // @ts-expect-error: a reservation's steps have no ETag to match
      client.reservations.commit('id', { ifMatch: '"e"' });
      client.reservations.release('id', { dryRun: true });
    };
  });
});

describe('request and requestList', () => {
  it('type the body by the route key, with no type argument', () => {
    const id = { params: { id: 'x' } };
    const params: Contract.ListInvoicesParams = { status: 'overdue' };
    expectTypeOf(() => client.request('me', {})).returns.resolves.toEqualTypeOf<Contract.Me>();
    expectTypeOf(() => client.request('items.get', id)).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(() => client.request('items.delete', id)).returns.resolves.toEqualTypeOf<Contract.DeletedItem>();
    expectTypeOf(() => client.request('items.list', {})).returns.resolves.toEqualTypeOf<Contract.ItemList>();
    expectTypeOf(() => client.requestList('invoices.list', params)).returns.toEqualTypeOf<
      PagePromise<Contract.Invoice, Contract.ListInvoicesParams>
    >();
    // @ts-expect-error: not a list route
    const _notList = () => client.requestList('items.get', {});
    const failed: Contract.ListWebhookDeliveriesParams = { status: 'failed' };
    expectTypeOf(() =>
      client.requestList('webhookEndpoints.deliveries', failed, undefined, { id: 'x' }),
    ).returns.toEqualTypeOf<PagePromise<Contract.WebhookDelivery, Contract.ListWebhookDeliveriesParams>>();
    // @ts-expect-error: the deliveries' path needs the endpoint's id
    const _noPath = () => client.requestList('webhookEndpoints.deliveries', {});
    // @ts-expect-error: items.list takes no path values
    const _extraPath = () => client.requestList('items.list', {}, undefined, { id: 'x' });
    // @ts-expect-error: not a route
    const _unknown = () => client.request('items.archive', {});
  });

  it('take a client as the transport of a resource built by hand', () => {
    const items = new Items(client);
    expectTypeOf<Awaited<ReturnType<typeof items.get>>>().toEqualTypeOf<Contract.Item>();
  });
});

describe('pages and errors', () => {
  it('awaits to a Page and iterates items', () => {
    const _walk = async () => {
      const page = await client.items.list({ status: 'in_stock' });
      expectTypeOf(page).toEqualTypeOf<Page<Item, Contract.ListItemsParams>>();
      expectTypeOf(page.items).toEqualTypeOf<Item[]>();
      for await (const item of client.items.list()) expectTypeOf(item).toEqualTypeOf<Item>();
      expectTypeOf(await client.items.list().collectAll({ max: 10 })).toEqualTypeOf<CollectedItems<Item>>();
    };
  });

  it('narrows errors with instanceof', () => {
    const _narrow = (error: unknown) => {
      if (error instanceof RateLimitError) expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
      if (error instanceof APIError) {
        expectTypeOf(error.status).toEqualTypeOf<number>();
        expectTypeOf(error.issues).toEqualTypeOf<Contract.ErrorIssue[] | undefined>();
        expectTypeOf<ErrorCode>().toMatchTypeOf<NonNullable<typeof error.code>>();
      }
    };
  });
});

describe('conditional requests and response metadata', () => {
  it('returns NotModified only when ifNoneMatch is passed, and narrows with ===', () => {
    const _narrow = async (etag: string, maybe: string | undefined) => {
      expectTypeOf(await client.items.get('id')).toEqualTypeOf<Item>();
      expectTypeOf(await client.items.get('id', { timeoutMs: 5 })).toEqualTypeOf<Item>();
      const conditional = await client.items.get('id', { ifNoneMatch: etag });
      expectTypeOf(conditional).toEqualTypeOf<Item | NotModified>();
      if (conditional === NOT_MODIFIED) return;
      expectTypeOf(conditional).toEqualTypeOf<Item>();
      expectTypeOf(await client.items.get('id', { ifNoneMatch: maybe })).toEqualTypeOf<Item | NotModified>();
      expectTypeOf(await client.me({ ifNoneMatch: etag })).toEqualTypeOf<Contract.Me | NotModified>();
      expectTypeOf(await client.categories.get('id', { ifNoneMatch: etag })).toEqualTypeOf<
        Contract.Category | NotModified
      >();
      expectTypeOf(await client.warehouses.get('id')).toEqualTypeOf<Contract.Warehouse>();
      expectTypeOf(await client.items.valuations('id', {}, { ifNoneMatch: etag })).toEqualTypeOf<
        Contract.ValuationList | NotModified
      >();
      expectTypeOf(await client.request('items.list', {}, { ifNoneMatch: etag })).toEqualTypeOf<
        Contract.ItemList | NotModified
      >();
      expectTypeOf(await client.request('items.list', {})).toEqualTypeOf<Contract.ItemList>();
      const plain: RequestOptions = {};
      expectTypeOf(await client.items.get('id', plain)).toEqualTypeOf<Item>();
      const options: ConditionalGetOptions = { ifNoneMatch: etag };
      expectTypeOf(await client.items.get('id', options)).toEqualTypeOf<Item | NotModified>();
    };
  });

  it('keeps the plain signature last, so ReturnType (what the CLI reads) is the object', () => {
    expectTypeOf<Awaited<ReturnType<Coinventory['items']['get']>>>().toEqualTypeOf<Item>();
    expectTypeOf<Awaited<ReturnType<Coinventory['categories']['get']>>>().toEqualTypeOf<Contract.Category>();
    expectTypeOf<Awaited<ReturnType<Coinventory['me']>>>().toEqualTypeOf<Contract.Me>();
  });

  it('takes ifMatch and idempotencyKey only where they apply', () => {
    const _options = () => {
      client.items.update('id', {}, { ifMatch: '"e"', idempotencyKey: 'k' });
      client.items.delete('id', { ifMatch: '"e"' });
      client.items.create({ sku: 'S', title: 'T' }, { idempotencyKey: 'k' });
      // @ts-expect-error: a create has no version to match
      client.items.create({ sku: 'S', title: 'T' }, { ifMatch: '"e"' });
      // @ts-expect-error: reads send no Idempotency-Key
      client.items.get('id', { idempotencyKey: 'k' });
      // @ts-expect-error: lists are conditional through client.request only
      client.items.list({}, { ifNoneMatch: '"e"' });
    };
  });

  it('gives the metadata with withResponse()', () => {
    const _metadata = async () => {
      const call = client.items.get('id');
      expectTypeOf(call).toEqualTypeOf<APIPromise<Item>>();
      expectTypeOf(call).toMatchTypeOf<Promise<Item>>();
      const answer = await call.withResponse();
      expectTypeOf(answer).toEqualTypeOf<APIResponse<Item>>();
      expectTypeOf(answer.etag).toEqualTypeOf<string | undefined>();
    };
  });
});

describe('the changes feed', () => {
  it('types pages, changes and their data by type', () => {
    const _feed = async () => {
      expectTypeOf(client.changes.list).returns.toEqualTypeOf<APIPromise<Contract.ChangeList>>();
      expectTypeOf(client.changes.cursor).returns.toEqualTypeOf<APIPromise<Contract.ChangesCursor>>();
      expectTypeOf(client.changes.pages).returns.toEqualTypeOf<ChangeFeed<Contract.ChangeList>>();
      const feed = client.changes.all({ types: ['item.deleted'], follow: true });
      expectTypeOf(feed.cursor).toEqualTypeOf<string | undefined>();
      for await (const change of feed) {
        // Every change type narrows `data` to its object; a switch over them all is exhaustive.
        switch (change.type) {
          case 'item.created':
          case 'item.updated':
            expectTypeOf(change).toEqualTypeOf<ItemCreatedChange | ItemUpdatedChange>();
            expectTypeOf(change.data).toEqualTypeOf<Item>();
            break;
          case 'item.deleted':
            expectTypeOf(change).toEqualTypeOf<ItemDeletedChange>();
            expectTypeOf(change.data).toEqualTypeOf<null>();
            break;
          case 'valuation.created':
            expectTypeOf(change).toEqualTypeOf<ValuationCreatedChange>();
            expectTypeOf(change.data).toEqualTypeOf<Valuation>();
            expectTypeOf(change.data.itemId).toEqualTypeOf<string>();
            break;
          case 'consignment.created':
          case 'consignment.updated':
            expectTypeOf(change).toEqualTypeOf<ConsignmentCreatedChange | ConsignmentUpdatedChange>();
            expectTypeOf(change.data).toEqualTypeOf<Consignment>();
            break;
          case 'invoice.created':
          case 'invoice.updated':
            expectTypeOf(change).toEqualTypeOf<InvoiceCreatedChange | InvoiceUpdatedChange>();
            expectTypeOf(change.data).toEqualTypeOf<Invoice>();
            break;
          case 'reservation.created':
          case 'reservation.committed':
          case 'reservation.released':
          case 'reservation.expired':
            expectTypeOf(change).toEqualTypeOf<
              | ReservationCreatedChange
              | ReservationCommittedChange
              | ReservationReleasedChange
              | ReservationExpiredChange
            >();
            expectTypeOf(change.data).toEqualTypeOf<Reservation>();
            break;
          default:
            expectTypeOf(change).toBeNever();
        }
        // Every change names who made it.
        expectTypeOf(change.actor).toEqualTypeOf<Contract.Actor>();
        // Not every change's data is an item: `type` must name the item types before reading one.
        if (change.type !== 'item.deleted') {
          // @ts-expect-error: a Valuation, a Consignment, an Invoice or a Reservation has no sku
          void change.data.sku;
        }
      }
      expectTypeOf<Change['type']>().toEqualTypeOf<ChangeType>();
      expectTypeOf<Change>().toEqualTypeOf<Contract.Change>();
      expectTypeOf<ValuationCreatedChange>().toEqualTypeOf<Contract.ValuationCreatedChange>();
      expectTypeOf<ConsignmentUpdatedChange>().toEqualTypeOf<Contract.ConsignmentUpdatedChange>();
      expectTypeOf<InvoiceUpdatedChange>().toEqualTypeOf<Contract.InvoiceUpdatedChange>();
      // Only types of the contract's CHANGE_TYPES filter the feed, the new ones included.
      client.changes.list({ types: ['valuation.created', 'consignment.updated', 'invoice.created'] });
      // @ts-expect-error: not a change type
      client.changes.list({ types: ['item.archived'] });
      // @ts-expect-error: types is a list, not the query's comma-separated text
      client.changes.list({ types: 'item.created' });
    };
  });
});
