import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant, localsOf, tenantOf } from '../../request/context.js';
import { batchItems } from './batch.js';
import { createItem, deleteItem, listItemValuations, updateItem, type WriteNotifier } from './service.js';
import { findItem, listItems } from './store.js';

const s = initServer();

/** The items routes; writes that queue work for the background workers tell `notify` after their commit. */
export const itemsRoutes = (notify: WriteNotifier) =>
  s.router(contract.items, {
    list: inTenant(({ sql, organizationId }, { query }) => listItems(sql, organizationId, query)),
    // A dry run answers without keeping its answer (it wrote nothing), so it does not go through inTenant's keeper.
    batch: async ({ query, body, res }) => {
      const { sql, organizationId } = tenantOf(res);
      const { keepAnswer } = localsOf(res);
      const run = (db: typeof sql) => batchItems(db, organizationId, body, { dryRun: query.dryRun, notify });
      return { status: 200 as const, body: keepAnswer && !query.dryRun ? await keepAnswer(run) : await run(sql) };
    },
    create: inTenant(({ sql, organizationId }, { body }) => createItem(sql, organizationId, body, notify)),
    get: inTenant(async ({ sql, organizationId }, { params }) => found(await findItem(sql, organizationId, params.id))),
    update: inTenant(({ sql, organizationId }, { params, body, req }) =>
      updateItem(sql, organizationId, params.id, body, notify, { ifMatch: req.get('if-match') }),
    ),
    delete: inTenant(({ sql, organizationId }, { params, req }) =>
      deleteItem(sql, organizationId, params.id, notify, { ifMatch: req.get('if-match') }),
    ),
    valuations: inTenant(({ sql, organizationId }, { params, query }) =>
      listItemValuations(sql, organizationId, params.id, query.limit),
    ),
  });
