import { contractRoutes } from '@coinventory/contract';
import { ROUTES, type RouteKey } from '@coinventory/contract/routes';
import { describe, expect, it } from 'vitest';
import { Coinventory } from '../src/index.js';

describe('@coinventory/contract as the SDK sees it', () => {
  it('exposes every route with an operation id the SDK can name its methods after', () => {
    expect(contractRoutes.map((r) => r.route.metadata.operationId)).toEqual([
      'getMe',
      'listItems',
      'createItem',
      'batchItems',
      'getItem',
      'updateItem',
      'deleteItem',
      'adjustItem',
      'listItemMovements',
      'listItemValuations',
      'exportItems',
      'createReservation',
      'listReservations',
      'getReservation',
      'commitReservation',
      'releaseReservation',
      'listConsignments',
      'getConsignment',
      'listInvoices',
      'getInvoice',
      'listCategories',
      'getCategory',
      'listWarehouses',
      'getWarehouse',
      'listChanges',
      'getChangesCursor',
      'listWebhookEndpoints',
      'createWebhookEndpoint',
      'getWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'rotateWebhookEndpointSecret',
      'listWebhookDeliveries',
      'replayWebhookEndpoint',
      'testWebhookEndpoint',
    ]);
  });

  it('sends every route with the method and path the contract declares', async () => {
    const sent: string[] = [];
    const client = new Coinventory({
      apiKey: 'cvk_live_x',
      baseUrl: 'https://api.example/v1',
      fetch: async (url, init) => {
        sent.push(`${init.method} ${url}`);
        return Response.json({});
      },
    });
    for (const { key } of contractRoutes) await client.request(key as RouteKey, { params: { id: 'it-1' } });
    expect(sent).toEqual(
      contractRoutes.map(({ route }) => `${route.method} https://api.example/v1${route.path.replace(/:\w+/g, 'it-1')}`),
    );
  });

  it('wraps every route: `items.list` is client.items.list, `me` is client.me', () => {
    const client = new Coinventory({ apiKey: 'cvk_live_x' });
    for (const key of Object.keys(ROUTES)) {
      const method = key.split('.').reduce<unknown>((owner, name) => (owner as Record<string, unknown>)[name], client);
      expect(typeof method, key).toBe('function');
    }
  });
});
