import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import type { Logger } from 'pino';
import type { Sql } from '../../db/types.js';
import { found } from '../../errors.js';
import { authOf, inTenant, localsOf, tenantOf } from '../../request/context.js';
import { conditionsOf } from '../../request/etag.js';
import { readWithAuthentication } from '../../request/gated-read.js';
import { batchItems } from './batch.js';
import { maybeDry } from './dry-run.js';
import { ExportSlots, exportItems } from './export.js';
import { createItem, deleteItem, listItemValuations, updateItem, type WriteNotifier } from './service.js';
import { findItem, itemRead, listItems } from './store.js';

const s = initServer();

/** Nobody is told of a dry run's work: it is rolled back. */
const quiet: WriteNotifier = { syncQueued: () => {}, webhooksQueued: () => {} };

/**
 * Answers a write that may be a dry run. A dry run runs in a transaction rolled back once it has answered: nothing
 * written, nobody notified, and no Idempotency-Key answer kept (the idempotency middleware lets it through, and it
 * does not go through the keeper). A real one runs as inTenant runs it.
 */
async function write<Body>(
  res: Response,
  dryRun: boolean,
  notify: WriteNotifier,
  work: (sql: Sql, organizationId: string, notify: WriteNotifier) => Promise<Body>,
): Promise<{ status: 200; body: Body }> {
  const { sql, organizationId } = tenantOf(res);
  const { keepAnswer } = localsOf(res);
  let body: Body;
  if (dryRun) body = await maybeDry(sql, true, (db) => work(db, organizationId, quiet));
  else if (keepAnswer) body = await keepAnswer((db) => work(db, organizationId, notify));
  else body = await work(sql, organizationId, notify);
  return { status: 200, body };
}

/** The items routes; writes that queue work for the background workers tell `notify` after their commit. */
export const itemsRoutes = (notify: WriteNotifier, logger: Logger, exportSlots = new ExportSlots()) =>
  s.router(contract.items, {
    list: inTenant(({ sql, organizationId }, { query }) => listItems(sql, organizationId, query)),
    batch: ({ query, body, res }) =>
      write(res, query.dryRun, notify, (sql, organizationId, told) =>
        batchItems(sql, organizationId, body, { dryRun: query.dryRun, notify: told }),
      ),
    create: ({ query, body, res }) =>
      write(res, query.dryRun, notify, (sql, organizationId, told) => createItem(sql, organizationId, body, told)),
    get: inTenant(async ({ sql, organizationId }, { params, res }) =>
      found(await readWithAuthentication(res, itemRead, () => findItem(sql, organizationId, params.id))),
    ),
    update: ({ params, query, body, req, res }) =>
      write(res, query.dryRun, notify, (sql, organizationId, told) =>
        updateItem(sql, organizationId, params.id, body, told, conditionsOf(req)),
      ),
    delete: ({ params, query, req, res }) =>
      write(res, query.dryRun, notify, (sql, organizationId, told) =>
        deleteItem(sql, organizationId, params.id, told, conditionsOf(req)),
      ),
    valuations: inTenant(({ sql, organizationId }, { params, query }) =>
      listItemValuations(sql, organizationId, params.id, query.limit),
    ),
    export: async ({ query, req, res }) => {
      const { sql, organizationId } = tenantOf(res);
      const keyId = authOf(res).apiKey.id;
      const { status, body } = await exportItems(sql, organizationId, keyId, query, req, res, exportSlots, logger);
      // The contract types the answer as the text a client receives; ts-rest pipes a stream body as it comes (an
      // empty one for a 304 or a HEAD, which send none).
      return status === 304 ? { status, body: body as never } : { status, body: body as unknown as string };
    },
  });
