export { CUSTOMERS_IMPORT } from './customers-import.js';
export { INVOICES_IMPORT } from './import.js';
export { INVOICE_LINES_IMPORT, INVOICE_PAYMENTS_IMPORT } from './parts-import.js';
export { invoiceRead, invoicesRoutes } from './routes.js';
export { copyInvoicesToSandbox, countInvoices } from './sandbox.js';
export {
  type CustomerRow,
  findInvoice,
  INVOICES,
  type InvoiceLineRow,
  type InvoicePaymentRow,
  type InvoiceRow,
  insertInvoiceRows,
  listInvoices,
} from './store.js';
