import {
  type BatchItemResult,
  type BatchItemsBody,
  type BatchItemsResult,
  CreateItemBodySchema,
  UpdateItemBodySchema,
} from '@coinventory/contract';
import { asPool } from '../../db/nested.js';
import type { Sql } from '../../db/types.js';
import { ApiError, issuesOf } from '../../errors.js';
import { createItem, updateItem, type WriteNotifier } from './service.js';
import { findIdBySku } from './store.js';

/** What the entries of a batch queued, told to the workers once, after the commit. */
function collector() {
  const queued = { sync: false, webhooks: false };
  const notify: WriteNotifier = {
    syncQueued: () => {
      queued.sync = true;
    },
    webhooksQueued: () => {
      queued.webhooks = true;
    },
  };
  return {
    notify,
    tell: (to: WriteNotifier) => {
      if (queued.sync) to.syncQueued();
      if (queued.webhooks) to.webhooksQueued();
    },
  };
}

const refused = (index: number, error: ApiError): BatchItemResult => ({
  index,
  status: error.status,
  action: null,
  item: null,
  error: error.body,
});

/**
 * One entry, through the single-item route's own service (its savepoint, its events, sync jobs and webhook
 * deliveries), answered as that route would answer it.
 */
async function applyEntry(
  sql: Sql,
  organizationId: string,
  mode: BatchItemsBody['mode'],
  entry: Record<string, unknown>,
  index: number,
  notify: WriteNotifier,
): Promise<BatchItemResult> {
  const location = `body.items.${index}`;
  try {
    const sku = typeof entry.sku === 'string' ? entry.sku : undefined;
    const existing = mode === 'upsert' && sku !== undefined ? await findIdBySku(sql, organizationId, sku) : null;
    if (existing !== null) {
      const parsed = UpdateItemBodySchema.safeParse(entry);
      if (!parsed.success) return refused(index, new ApiError('BAD_REQUEST', issuesOf(location, parsed.error)));
      const item = await updateItem(sql, organizationId, existing, parsed.data, notify);
      return { index, status: 200, action: 'updated', item, error: null };
    }
    const parsed = CreateItemBodySchema.safeParse(entry);
    if (!parsed.success) return refused(index, new ApiError('BAD_REQUEST', issuesOf(location, parsed.error)));
    const item = await createItem(sql, organizationId, parsed.data, notify);
    return { index, status: 200, action: 'created', item, error: null };
  } catch (error) {
    // The route's own refusals (a SKU taken, an id not of the workspace) are this entry's answer; anything else
    // fails the whole batch, and nothing of it is committed.
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const issues = error.issues?.map((issue) => issue.replace(/^body\./, `${location}.`));
    return refused(index, new ApiError(error.code, issues, error.headers));
  }
}

/**
 * `POST /items/batch`: every entry in order, in one transaction, each in its own savepoint so a refused entry leaves
 * the others applied. `dryRun` says the caller runs it as a dry run (modules/items/dry-run.ts), to be rolled back.
 */
export async function batchItems(
  sql: Sql,
  organizationId: string,
  body: BatchItemsBody,
  options: { dryRun: boolean; notify: WriteNotifier },
): Promise<BatchItemsResult> {
  const queued = collector();
  const results = await sql.begin(async (tx) => {
    const inside = asPool(tx);
    const answers: BatchItemResult[] = [];
    for (const [index, entry] of body.items.entries()) {
      answers.push(await applyEntry(inside, organizationId, body.mode, entry, index, queued.notify));
    }
    return answers;
  });
  if (!options.dryRun) queued.tell(options.notify);
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
