import { contract } from '@coinventory/contract';
import type { Logger } from 'pino';
import { conditionsOf } from '../../request/etag.js';
import { readById } from '../../request/gated-read.js';
import { read, readAnswer, readOne, readText, type WriteNotifier, write } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { batchItems } from './batch.js';
import { ITEMS } from './columns.js';
import { type ExportSlots, exportItems } from './export.js';
import { listMovements } from './movements.js';
import { adjustItem } from './quantities.js';
import { createItem, deleteItem, listItemValuations, updateItem } from './service.js';
import { itemById, listItems } from './store.js';

/** GET /items/{id}, read in the request's authentication statement (request/gated-read.ts). */
export const itemRead = readById(contract.items.get, ITEMS, itemById);

/** The items routes; writes that queue work for the background workers tell `notify` after their commit. */
export const itemsRoutes = (notify: WriteNotifier, logger: Logger, exportSlots: ExportSlots) =>
  routesFor(contract.items, {
    list: readText(({ db, organizationId }, { query }) => listItems(db, organizationId, query)),
    batch: write(notify, ({ tx, organizationId, notify: told }, { query, body }) =>
      batchItems(tx, organizationId, body, { dryRun: query.dryRun, notify: told }),
    ),
    create: write(notify, ({ tx, organizationId, notify: told }, { body }) =>
      createItem(tx, organizationId, body, told),
    ),
    get: readOne(itemRead),
    update: write(notify, ({ tx, organizationId, notify: told }, { params, body, req }) =>
      updateItem(tx, organizationId, params.id, body, told, conditionsOf(req)),
    ),
    delete: write(notify, ({ tx, organizationId, notify: told }, { params, req }) =>
      deleteItem(tx, organizationId, params.id, told, conditionsOf(req)),
    ),
    adjust: write(notify, ({ tx, organizationId, notify: told }, { params, body, req }) =>
      adjustItem(tx, organizationId, params.id, body, told, conditionsOf(req)),
    ),
    movements: read(({ db, organizationId }, { params, query }) => listMovements(db, organizationId, params.id, query)),
    valuations: read(({ db, organizationId }, { params, query }) =>
      listItemValuations(db, organizationId, params.id, query.limit),
    ),
    export: readAnswer(async (context, { query, req, res }) => {
      const { status, body } = await exportItems(context, query, req, res, exportSlots, logger);
      // The contract types the answer as the text a client receives; ts-rest pipes a stream body as it comes (an
      // empty one for a 304 or a HEAD, which send none).
      return status === 304 ? { status, body: body as never } : { status, body: body as unknown as string };
    }),
  });
