import type { TransactionSql } from '../../db/types.js';

/** What a reset puts in a sandbox, by kind of record, in the order the copy writes them. */
export const SANDBOX_RECORDS = [
  'warehouses',
  'zones',
  'categories',
  'consignors',
  'consignments',
  'items',
  'itemImages',
  'valuations',
  'valuationComps',
  'customers',
  'invoices',
  'invoiceLines',
  'invoicePayments',
  'webhookEndpoints',
] as const;
export type SandboxRecord = (typeof SANDBOX_RECORDS)[number];
export type SandboxRecordCounts = Record<SandboxRecord, number>;

/** The records a fill wrote: every kind but the webhook endpoints, which a reset carries over itself. */
export type FilledCounts = Omit<SandboxRecordCounts, 'webhookEndpoints'>;

/** No records of any kind, for a fill to add its own to. */
export const NO_RECORDS: FilledCounts = {
  warehouses: 0,
  zones: 0,
  categories: 0,
  consignors: 0,
  consignments: 0,
  items: 0,
  itemImages: 0,
  valuations: 0,
  valuationComps: 0,
  customers: 0,
  invoices: 0,
  invoiceLines: 0,
  invoicePayments: 0,
};

/**
 * Fills a new sandbox with the demo shop's data, in the reset's transaction. The demo (src/demo) sits a layer above the
 * modules, so the caller of a reset hands it in.
 */
export type DemoFill = (tx: TransactionSql, sandbox: { id: string }) => Promise<FilledCounts>;
