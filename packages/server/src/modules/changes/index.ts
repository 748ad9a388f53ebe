/** The changes feed: every change recorded in its own transaction, read back in commit order from a cursor. */
export { changesRoutes } from './routes.js';
export { type ChangeRecord, pruneChanges, recordChange } from './store.js';
