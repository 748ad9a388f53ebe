/** Safe retries of writes: Idempotency-Key, each write's first answer kept with its writes and replayed. */
export { idempotentWrites } from './middleware.js';
export { pruneAnswers } from './store.js';
