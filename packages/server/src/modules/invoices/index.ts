export { invoicesRoutes } from './routes.js';
export { findInvoice, INVOICES, listInvoices } from './store.js';
