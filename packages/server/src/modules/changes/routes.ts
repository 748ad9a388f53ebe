import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { read } from '../../request/pipeline.js';
import { currentCursor, listChanges } from './feed.js';

/** GET /changes and GET /changes/cursor: the organization's changes feed. */
export const changesRoutes = initServer().router(contract.changes, {
  list: read(({ db, organizationId }, { query }) => listChanges(db, organizationId, query)),
  cursor: read(({ db, organizationId }) => currentCursor(db, organizationId)),
});
