export { CUSTOMERS_IMPORT } from './customers-import.js';
export { INVOICES_IMPORT } from './import.js';
export { INVOICE_LINES_IMPORT } from './lines-import.js';
export { INVOICE_PAYMENTS_IMPORT } from './payments-import.js';
export { invoiceRead, invoicesRoutes } from './routes.js';
export { findInvoice, INVOICES, listInvoices } from './store.js';
