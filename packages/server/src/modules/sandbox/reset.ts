import { actAs, OPERATOR } from '../../db/actor.js';
import { isTransactionConflict } from '../../db/errors.js';
import type { Sql, TransactionSql } from '../../db/types.js';
import { copyCategoriesToSandbox } from '../categories/index.js';
import { copyConsignmentsToSandbox } from '../consignments/index.js';
import { copyInvoicesToSandbox } from '../invoices/index.js';
import { copyItemsToSandbox } from '../items/index.js';
import {
  findSandbox,
  insertSandbox,
  lockWorkspace,
  type OrganizationRow,
  requireOrganization,
  type SandboxSource,
} from '../organizations/index.js';
import { copyValuationsToSandbox } from '../valuations/index.js';
import { copyWarehousesToSandbox, createDefaultWarehouse } from '../warehouses/index.js';
import { moveEndpointsToSandbox } from '../webhooks/index.js';
import { type DemoFill, type FilledCounts, NO_RECORDS, type SandboxRecordCounts } from './records.js';
import { deleteReplacedSandboxes } from './replaced.js';

export interface SandboxReset {
  /** The live workspace. */
  organization: { id: string; slug: string };
  /** The new sandbox: what test keys reach from now on. */
  sandbox: { id: string; source: SandboxSource; createdAt: Date };
  /** The sandbox it replaced, if there was one: deleted once no request can still be reading it. */
  replaced: string | null;
  /** What the new sandbox holds; its webhook endpoints are the old sandbox's, moved over. */
  counts: SandboxRecordCounts;
  /** From the start of the reset to its commit, tries again included. */
  elapsedMs: number;
}

/** A reset PostgreSQL gave up for another transaction's sake (another reset of the workspace) runs again. */
const TRIES = 3;

/**
 * The workspace's sandbox, made again from `from` in one transaction, which test keys see whole when it commits: the
 * requests authenticated before read the old sandbox, those after the new one (a new organization, so its changes
 * feed starts afresh). The old one is kept for the requests still reading it, and deleted, with everything it held,
 * by a later reset or the server's housekeeping (replaced.ts).
 *
 * - `empty`: the default warehouse and zone, as a new organization has.
 * - `demo`: the demo shop's data (`demo` fills it).
 * - `live`: a copy of the workspace's warehouses and zones, categories, consignors and consignments, items and their
 *   images, valuations and their comps, customers and invoices with their lines and payments. Not its keys, webhook
 *   endpoints, marketplace links and jobs, reservations, changes, idempotency keys, valuation sources or policy. Each
 *   owning module copies its own tables; ids are mapped with `sandbox_copy_id` (db/sandbox-copy.ts).
 *
 * The old sandbox's webhook endpoints move to the new one with their ids and secrets; their deliveries are dropped.
 *
 * REPEATABLE READ: the copy's statements read the workspace as of one moment, so a line written meanwhile cannot name
 * an item the copy of items did not see.
 */
export async function resetSandbox(
  sql: Sql,
  input: { org: string; from: SandboxSource; demo: DemoFill },
): Promise<SandboxReset> {
  const started = performance.now();
  const workspace = await requireOrganization(sql, input.org);
  for (let tried = 1; ; tried += 1) {
    try {
      const reset = await sql.begin('isolation level repeatable read', (tx) => replaceSandbox(tx, workspace, input));
      return { ...reset, elapsedMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (tried >= TRIES || !isTransactionConflict(error)) throw error;
    }
  }
}

async function replaceSandbox(
  tx: TransactionSql,
  workspace: OrganizationRow,
  input: { from: SandboxSource; demo: DemoFill },
): Promise<Omit<SandboxReset, 'elapsedMs'>> {
  // An operator's command, however long the copy takes (through a running server's socket, the server's pool has a
  // statement timeout for requests).
  await tx`SET LOCAL statement_timeout = 0`;
  await actAs(tx, OPERATOR);
  await lockWorkspace(tx, workspace.id);
  const previous = await findSandbox(tx, workspace.id);
  const sandbox = await insertSandbox(tx, workspace, input.from);
  const moved = previous ? await moveEndpointsToSandbox(tx, previous.id, sandbox.id) : { webhookEndpoints: 0 };
  await deleteReplacedSandboxes(tx, { workspaceId: workspace.id });
  const filled = await fill(tx, workspace.id, { ...sandbox, source: input.from }, input.demo);
  return {
    organization: { id: workspace.id, slug: workspace.slug },
    sandbox: { id: sandbox.id, source: input.from, createdAt: sandbox.createdAt },
    replaced: previous?.id ?? null,
    counts: { ...filled, ...moved },
  };
}

async function fill(
  tx: TransactionSql,
  workspaceId: string,
  sandbox: { id: string; source: SandboxSource; createdAt: Date },
  demo: DemoFill,
): Promise<FilledCounts> {
  switch (sandbox.source) {
    case 'empty':
      await createDefaultWarehouse(tx, sandbox.id, sandbox.createdAt);
      return { ...NO_RECORDS, warehouses: 1, zones: 1 };
    case 'demo':
      return demo(tx, sandbox);
    case 'live':
      return copyLive(tx, workspaceId, sandbox.id);
  }
}

/** Parents before children, in foreign key order. */
async function copyLive(tx: TransactionSql, from: string, to: string): Promise<FilledCounts> {
  const places = await copyWarehousesToSandbox(tx, from, to);
  const categories = await copyCategoriesToSandbox(tx, from, to);
  const consignments = await copyConsignmentsToSandbox(tx, from, to);
  const items = await copyItemsToSandbox(tx, from, to);
  const valuations = await copyValuationsToSandbox(tx, from, to);
  const invoices = await copyInvoicesToSandbox(tx, from, to);
  return { ...places, ...categories, ...consignments, ...items, ...valuations, ...invoices };
}
