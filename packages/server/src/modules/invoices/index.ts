export {
  CUSTOMERS_IMPORT,
  INVOICE_LINES_IMPORT,
  INVOICE_PAYMENTS_IMPORT,
  INVOICES_IMPORT,
} from './import.js';
export { invoicesRoutes } from './routes.js';
export { findInvoice, INVOICES, invoiceRead, listInvoices } from './store.js';
