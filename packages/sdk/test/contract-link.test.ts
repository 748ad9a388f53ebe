import { contractRoutes } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';

// The SDK's resources mirror the contract; until they exist, prove the built contract resolves from this package.
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
});
