import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { read, readOne } from '../../request/pipeline.js';
import { invoiceRead, listInvoices } from './store.js';

/** GET /invoices and GET /invoices/{id}: read-only, the organization's own. */
export const invoicesRoutes = initServer().router(contract.invoices, {
  list: read(({ db, organizationId }, { query }) => listInvoices(db, organizationId, query)),
  get: readOne(invoiceRead),
});
