import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { readWithAuthentication } from '../../request/gated-read.js';
import { findInvoice, invoiceRead, listInvoices } from './store.js';

/** GET /invoices and GET /invoices/{id}: read-only, the workspace's own. */
export const invoicesRoutes = initServer().router(contract.invoices, {
  list: inTenant(({ sql, organizationId }, { query }) => listInvoices(sql, organizationId, query)),
  get: inTenant(async ({ sql, organizationId }, { params, res }) =>
    found(await readWithAuthentication(res, invoiceRead, () => findInvoice(sql, organizationId, params.id))),
  ),
});
