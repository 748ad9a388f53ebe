import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { inTenant } from '../../request/context.js';
import { currentCursor, listChanges } from './feed.js';

const s = initServer();

export const changesRoutes = s.router(contract.changes, {
  list: inTenant(({ sql, organizationId }, { query }) => listChanges(sql, organizationId, query)),
  cursor: inTenant(({ sql, organizationId }) => currentCursor(sql, organizationId)),
});
