import { contract } from '@coinventory/contract';
import { read, readText } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { currentCursor, listChanges } from './feed.js';

/** GET /changes and GET /changes/cursor: the organization's changes feed. */
export const changesRoutes = routesFor(contract.changes, {
  list: readText(({ db, organizationId }, { query }) => listChanges(db, organizationId, query)),
  cursor: read(({ db, organizationId }) => currentCursor(db, organizationId)),
});
