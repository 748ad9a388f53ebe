export { invoicesRoutes } from './routes.js';
export { findInvoice, listInvoices } from './store.js';
