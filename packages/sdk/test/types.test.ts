import type * as Contract from '@coinventory/contract';
import type { ErrorCode, ItemSort, ItemStatus } from '@coinventory/contract/constants';
import { describe, expectTypeOf, it } from 'vitest';
import {
  APIError,
  Coinventory,
  type CollectedItems,
  type Item,
  Items,
  type Page,
  type PagePromise,
  RateLimitError,
} from '../src/index.js';

// Type-level tests: `tsc --noEmit` (the typecheck script) fails when one breaks, including an unused
// `@ts-expect-error`. The functions below are never called; only their types matter.
const client = new Coinventory({ apiKey: 'cvk_live_x', fetch: async () => Response.json({}) });

describe('types come from the contract', () => {
  it('returns the contract types', () => {
    expectTypeOf(client.me).returns.resolves.toEqualTypeOf<Contract.Me>();
    expectTypeOf(client.items.get).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.create).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.update).returns.resolves.toEqualTypeOf<Contract.Item>();
    expectTypeOf(client.items.delete).returns.resolves.toEqualTypeOf<Contract.DeletedItem>();
    expectTypeOf(client.items.valuations).returns.resolves.toEqualTypeOf<Contract.ValuationList>();
    expectTypeOf(client.consignments.get).returns.resolves.toEqualTypeOf<Contract.Consignment>();
    expectTypeOf(client.invoices.get).returns.resolves.toEqualTypeOf<Contract.Invoice>();
    expectTypeOf(client.items.list).returns.toEqualTypeOf<PagePromise<Contract.Item, Contract.ListItemsParams>>();
    expectTypeOf<Item>().toEqualTypeOf<Contract.Item>();
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
    // @ts-expect-error: not a route
    const _unknown = () => client.request('items.archive', {});
  });

  it('take a client as the transport of a resource built by hand', () => {
    expectTypeOf(new Items(client).get).returns.resolves.toEqualTypeOf<Contract.Item>();
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
