import type { Queryable, Sql } from '../../db/types.js';
import { countCategories } from '../categories/index.js';
import { countConsignments } from '../consignments/index.js';
import { countInvoices } from '../invoices/index.js';
import { countItems } from '../items/index.js';
import { findSandbox, requireOrganization, type SandboxSource } from '../organizations/index.js';
import { countValuations } from '../valuations/index.js';
import { countWarehouses } from '../warehouses/index.js';
import { countEndpoints } from '../webhooks/index.js';

export interface SandboxStatus {
  /** The live workspace. */
  organization: { id: string; slug: string };
  /** Null until the first test key or reset makes one. */
  sandbox: {
    id: string;
    source: SandboxSource;
    /** When it was made: by the last reset, or with the first test key. */
    lastResetAt: Date;
    counts: {
      items: number;
      categories: number;
      warehouses: number;
      consignments: number;
      invoices: number;
      valuations: number;
      webhookEndpoints: number;
    };
  } | null;
}

/**
 * The workspace's sandbox, what it was made from and when, and how many records of each kind it holds: read as of one
 * moment, so a reset that commits meanwhile is seen whole or not at all.
 */
export function sandboxStatus(sql: Sql, input: { org: string }): Promise<SandboxStatus> {
  return sql.begin('isolation level repeatable read read only', (tx) => readStatus(tx, input.org));
}

async function readStatus(sql: Queryable, org: string): Promise<SandboxStatus> {
  const workspace = await requireOrganization(sql, org);
  const organization = { id: workspace.id, slug: workspace.slug };
  const sandbox = await findSandbox(sql, workspace.id);
  if (!sandbox) return { organization, sandbox: null };
  const [items, categories, warehouses, consignments, invoices, valuations, webhookEndpoints] = await Promise.all([
    countItems(sql, sandbox.id),
    countCategories(sql, sandbox.id),
    countWarehouses(sql, sandbox.id),
    countConsignments(sql, sandbox.id),
    countInvoices(sql, sandbox.id),
    countValuations(sql, sandbox.id),
    countEndpoints(sql, sandbox.id),
  ]);
  return {
    organization,
    sandbox: {
      id: sandbox.id,
      source: sandbox.source,
      lastResetAt: sandbox.createdAt,
      counts: { items, categories, warehouses, consignments, invoices, valuations, webhookEndpoints },
    },
  };
}
