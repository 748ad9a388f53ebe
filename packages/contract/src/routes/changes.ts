import { CHANGE_TYPES } from '../constants.js';
import { ChangeListSchema, ChangesCursorSchema, ListChangesQuerySchema } from '../schemas/changes.js';
import { codeList } from '../schemas/fields.js';
import { c, meta, notModified, validated } from './common.js';

/** The changes feed's routes: the feed after a cursor, and its current cursor. */
export const changes = c.router({
  list: {
    method: 'GET',
    path: '/changes',
    summary: 'List changes',
    description: `Every change to the workspace after a cursor, in the order the changes were committed: items created, updated and deleted, valuations created, consignments and invoices created and updated. Each carries the object as the API returned it right after the change (null for a deleted item); \`type\` tells which, one of ${codeList(CHANGE_TYPES)}, and \`types\` keeps only the ones listed. A consumer that stores \`nextCursor\` and passes it as \`after\` sees every change exactly once, in commit order. Follow it from \`GET /changes/cursor\` taken before a full read.`,
    query: ListChangesQuerySchema,
    responses: { 200: ChangeListSchema, ...validated, ...notModified },
    metadata: meta({ scope: 'read', operationId: 'listChanges', tag: 'Changes' }),
  },
  cursor: {
    method: 'GET',
    path: '/changes/cursor',
    summary: "Get the feed's current cursor",
    description:
      'The cursor at the end of the changes feed right now. Take it before a full read (of the items, or of whatever you keep a copy of), then follow the feed from it.',
    responses: { 200: ChangesCursorSchema, ...validated, ...notModified },
    metadata: meta({ scope: 'read', operationId: 'getChangesCursor', tag: 'Changes' }),
  },
});
