import { SETTLED_PAYMENT_STATUS } from '@coinventory/contract';
import type { StoredItemRow } from '../../modules/items/index.js';
import { CUSTOMERS, INVOICES, TERMS_DAYS } from '../catalog/sales.js';
import type { CustomerKey } from '../catalog/shapes.js';
import type { DemoRows, InvoiceLineRow, InvoicePaymentRow, InvoiceRow } from '../rows.js';
import { addDays, addHours, type BuildContext, dayBefore, required } from './context.js';

/** Customers and the invoices of the catalog, with their lines and payments. */

export function buildInvoices(
  context: BuildContext,
  itemsBySku: ReadonlyMap<string, StoredItemRow>,
): Pick<DemoRows, 'customers' | 'invoices' | 'invoiceLines' | 'invoicePayments'> {
  const { organizationId, random } = context;
  const customerRows = new Map<CustomerKey, DemoRows['customers'][number]>();
  const customers: DemoRows['customers'] = CUSTOMERS.map((customer) => {
    const row = { organization_id: organizationId, id: context.ids.uuid(), name: customer.name, email: customer.email };
    customerRows.set(customer.key, row);
    return row;
  });
  const invoices: InvoiceRow[] = [];
  const invoiceLines: InvoiceLineRow[] = [];
  const invoicePayments: InvoicePaymentRow[] = [];
  for (const spec of INVOICES) {
    const id = context.ids.uuid();
    const createdAt = dayBefore(context, spec.createdDaysAgo);
    const customer = spec.customer === 'walk-in' ? null : required(customerRows, spec.customer, 'customer');
    spec.lines.forEach((line, index) => {
      const item = line.sku === null ? null : required(itemsBySku, line.sku, 'item');
      invoiceLines.push({
        organization_id: organizationId,
        id: context.ids.uuid(),
        invoice_id: id,
        position: index + 1,
        item_id: item?.id ?? null,
        description: line.description ?? item?.title ?? null,
        quantity: line.quantity,
        unit_price_in_cents: line.unitPriceInCents,
      });
    });
    const subtotal = spec.lines.reduce((sum, line) => sum + line.quantity * line.unitPriceInCents, 0);
    const discount = Math.min(spec.discountInCents ?? 0, subtotal);
    const tax = Math.round(((subtotal - discount) * (spec.taxBps ?? 0)) / 10_000);
    const total = subtotal - discount + (spec.shippingInCents ?? 0) + tax;
    let paid = 0;
    let lastPaidAt: Date | null = null;
    for (const payment of spec.payments) {
      const amount = payment.amount === 'balance' ? total - paid : payment.amount;
      const at = addHours(createdAt, payment.daysAfterInvoice * 24 + random.int(1, 6));
      invoicePayments.push({
        organization_id: organizationId,
        id: context.ids.uuid(),
        invoice_id: id,
        amount_in_cents: amount,
        method: payment.method,
        status: payment.status,
        // A pending payment has not cleared, so it has no paid date yet.
        paid_at: payment.status === 'pending' ? null : at,
        created_at: at,
      });
      if (payment.status === SETTLED_PAYMENT_STATUS) {
        paid += amount;
        lastPaidAt = at;
      }
    }
    invoices.push({
      organization_id: organizationId,
      id,
      number: spec.number,
      status: spec.status,
      source: spec.source,
      customer_id: customer?.id ?? null,
      customer_name: customer?.name ?? 'Walk-in customer',
      customer_email: customer?.email ?? null,
      discount_in_cents: discount,
      shipping_in_cents: spec.shippingInCents ?? 0,
      tax_in_cents: tax,
      // Drafts have no terms yet; everything issued is due in 30 days.
      due_at: spec.status === 'draft' || spec.status === 'cancelled' ? null : addDays(createdAt, TERMS_DAYS),
      paid_at: spec.status === 'paid' ? lastPaidAt : null,
      created_at: createdAt,
    });
  }
  return { customers, invoices, invoiceLines, invoicePayments };
}
