/** The changes feed: every change recorded in its own transaction, read back in commit order from a cursor. */
export {
  type ChangeSubscriber,
  changeJson,
  changeLog,
  type RecordedChange,
  type StoredChange,
  subscribeToChanges,
} from './change.js';
export { encodeCursor } from './cursor.js';
export { currentCursor, rangeAfter } from './feed.js';
export { changesRoutes } from './routes.js';
export { type ChangeRecord, pruneChanges, recordChange, recordChangesOf } from './store.js';
