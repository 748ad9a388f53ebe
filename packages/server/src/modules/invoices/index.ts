export { invoicesRoutes } from './routes.js';
export { findInvoice, INVOICES, invoiceRead, listInvoices } from './store.js';
