import { contract } from '@coinventory/contract';
import { readById } from '../../request/gated-read.js';
import { read, readOne } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { INVOICES, invoiceById, listInvoices } from './store.js';

/** GET by id, read in the request's authentication statement (request/gated-read.ts). */
export const invoiceRead = readById(contract.invoices.get, INVOICES, invoiceById);

/** GET /invoices and GET /invoices/{id}: read-only, the organization's own. */
export const invoicesRoutes = routesFor(contract.invoices, {
  list: read(({ db, organizationId }, { query }) => listInvoices(db, organizationId, query)),
  get: readOne(invoiceRead),
});
