import type { IncomingHttpHeaders } from 'node:http';
import type * as Contract from '@coinventory/contract';
import type { ErrorCode, ItemSort, ItemStatus } from '@coinventory/contract/constants';
import { describe, expectTypeOf, it } from 'vitest';
import {
  APIError,
  type APIPromise,
  type APIResponse,
  type ChangeFeed,
  Coinventory,
  type CollectedItems,
  type ConditionalGetOptions,
  type Item,
  Items,
  NOT_MODIFIED,
  type NotModified,
  type Page,
  type PagePromise,
  RateLimitError,
  type RequestOptions,
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
        if (change.type === 'item.deleted') expectTypeOf(change.data).toEqualTypeOf<null>();
        else expectTypeOf(change.data).toEqualTypeOf<Item>();
      }
      // @ts-expect-error: not a change type
      client.changes.list({ types: ['item.archived'] });
      // @ts-expect-error: types is a list, not the query's comma-separated text
      client.changes.list({ types: 'item.created' });
    };
  });
});
