import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { tenantOf } from '../../request/context.js';
import { findInvoice, listInvoices } from './store.js';

const s = initServer();

/** GET /invoices and GET /invoices/{id}: read-only, the workspace's own. */
export const invoicesRoutes = s.router(contract.invoices, {
  list: async ({ query, res }) => {
    const { sql, organizationId } = tenantOf(res);
    return { status: 200, body: await listInvoices(sql, organizationId, query) };
  },
  get: async ({ params, res }) => {
    const { sql, organizationId } = tenantOf(res);
    return { status: 200, body: found(await findInvoice(sql, organizationId, params.id)) };
  },
});
