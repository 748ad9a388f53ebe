import { contractRoutes } from '@coinventory/contract';
import { ROUTES } from '@coinventory/contract/routes';
import { describe, expect, it } from 'vitest';
import { Coinventory } from '../src/index.js';

describe('@coinventory/contract as the SDK sees it', () => {
  it('exposes every route with an operation id the SDK can name its methods after', () => {
    expect(contractRoutes.map((r) => r.route.metadata.operationId)).toEqual([
      'getMe',
      'listItems',
      'createItem',
      'getItem',
      'updateItem',
      'deleteItem',
      'listItemValuations',
      'listConsignments',
      'getConsignment',
      'listInvoices',
      'getInvoice',
    ]);
  });

  it('ships a zod-free route manifest that matches the contract', () => {
    expect(ROUTES).toEqual(
      Object.fromEntries(
        contractRoutes.map(({ key, route }) => [
          key,
          {
            method: route.method,
            path: route.path,
            scope: route.metadata.scope,
            operationId: route.metadata.operationId,
          },
        ]),
      ),
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
