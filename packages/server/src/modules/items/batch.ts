import {
  type BatchItemResult,
  type BatchItemsBody,
  type BatchItemsResult,
  CreateItemBodySchema,
  UpdateItemBodySchema,
} from '@coinventory/contract';
import { moveAs } from '../../db/actor.js';
import type { TransactionSql } from '../../db/types.js';
import { ApiError, issuesOf } from '../../errors.js';
import type { WriteNotifier } from '../../request/pipeline.js';
import { createItem, updateItem } from './service.js';
import { findIdBySku, lockItemsBySku } from './store.js';

const refused = (index: number, error: ApiError): BatchItemResult => ({
  index,
  status: error.status,
  action: null,
  item: null,
  error: error.body,
});

/**
 * One entry, through the single-item route's own service (its events, sync jobs and webhook deliveries) in a
 * savepoint of its own, answered as that route would answer it: a refused entry undoes only its own writes.
 */
async function applyEntry(
  tx: TransactionSql,
  organizationId: string,
  mode: BatchItemsBody['mode'],
  entry: Record<string, unknown>,
  index: number,
  notify: WriteNotifier,
): Promise<BatchItemResult> {
  const location = `body.items.${index}`;
  try {
    const sku = typeof entry.sku === 'string' ? entry.sku : undefined;
    const existing = mode === 'upsert' && sku !== undefined ? await findIdBySku(tx, organizationId, sku) : null;
    if (existing !== null) {
      const parsed = UpdateItemBodySchema.safeParse(entry);
      if (!parsed.success) return refused(index, new ApiError('BAD_REQUEST', issuesOf(location, parsed.error)));
      const item = await tx.savepoint((entryTx) => updateItem(entryTx, organizationId, existing, parsed.data, notify));
      return { index, status: 200, action: 'updated', item, error: null };
    }
    const parsed = CreateItemBodySchema.safeParse(entry);
    if (!parsed.success) return refused(index, new ApiError('BAD_REQUEST', issuesOf(location, parsed.error)));
    const item = await tx.savepoint((entryTx) => createItem(entryTx, organizationId, parsed.data, notify));
    return { index, status: 200, action: 'created', item, error: null };
  } catch (error) {
    // The route's own refusals (a SKU taken, an id not of the organization) are this entry's answer; anything else
    // fails the whole batch, and nothing of it is committed.
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const issues = error.issues?.map((issue) => issue.replace(/^body\./, `${location}.`));
    return refused(index, new ApiError(error.code, issues, error.headers));
  }
}

/**
 * `POST /items/batch`: every entry in order, in the request's transaction, each in its own savepoint so a refused
 * entry leaves the others applied. `dryRun` only says so in the answer: the pipeline rolls a dry run back.
 */
export async function batchItems(
  tx: TransactionSql,
  organizationId: string,
  body: BatchItemsBody,
  options: { dryRun: boolean; notify: WriteNotifier },
): Promise<BatchItemsResult> {
  // Each entry's quantity, as it creates or sets it, is one `batch` movement of its item's ledger.
  const moving = moveAs(tx, { kind: 'batch' });
  // The items an upsert may change, locked first and in one order: entries record their changes as they go, and the
  // feed's lock the first one takes must not be held while a later entry waits for an item.
  if (body.mode === 'upsert') {
    const skus = body.items.flatMap((entry) => (typeof entry.sku === 'string' ? [entry.sku] : []));
    await lockItemsBySku(tx, organizationId, skus);
  }
  await moving;
  const results: BatchItemResult[] = [];
  for (const [index, entry] of body.items.entries()) {
    results.push(await applyEntry(tx, organizationId, body.mode, entry, index, options.notify));
  }
  const count = (action: BatchItemResult['action']) => results.filter((result) => result.action === action).length;
  return {
    mode: body.mode,
    dryRun: options.dryRun,
    created: count('created'),
    updated: count('updated'),
    failed: count(null),
    results,
  };
}
