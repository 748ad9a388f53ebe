import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { tenantOf } from '../../request/context.js';
import { createItem, deleteItem, listItemValuations, type SyncNotifier, updateItem } from './service.js';
import { findItem, listItems } from './store.js';

const s = initServer();

/** The items routes; writes that queue marketplace sync jobs tell `notifySync` after their commit. */
export function itemsRoutes(notifySync: SyncNotifier) {
  return s.router(contract.items, {
    list: async ({ query, res }) => {
      const { sql, organizationId } = tenantOf(res);
      return { status: 200, body: await listItems(sql, organizationId, query) };
    },
    create: async ({ body, res }) => {
      const { sql, organizationId } = tenantOf(res);
      return { status: 200, body: await createItem(sql, organizationId, body) };
    },
    get: async ({ params, res }) => {
      const { sql, organizationId } = tenantOf(res);
      return { status: 200, body: found(await findItem(sql, organizationId, params.id)) };
    },
    update: async ({ params, body, res }) => {
      const { sql, organizationId } = tenantOf(res);
      return { status: 200, body: await updateItem(sql, organizationId, params.id, body, notifySync) };
    },
    delete: async ({ params, res }) => {
      const { sql, organizationId } = tenantOf(res);
      return { status: 200, body: await deleteItem(sql, organizationId, params.id, notifySync) };
    },
    valuations: async ({ params, query, res }) => {
      const { sql, organizationId } = tenantOf(res);
      return { status: 200, body: await listItemValuations(sql, organizationId, params.id, query.limit) };
    },
  });
}
