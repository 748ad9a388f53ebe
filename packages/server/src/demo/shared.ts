/**
 * What the benchmark's seeding shares with the server (the package's `demo-data` entry): the demo's seeded
 * generator, and the items table's one declaration, whose stored columns are the benchmark's COPY column list.
 * The declaration comes from its own file, not the items module's index, so this entry loads no routes or services.
 * Also the key format and the plans with API access, with which the many-keys scenario makes a thousand keys in one
 * statement, as the operator command would make each.
 */
export { API_PLANS } from '../modules/access/authenticate.js';
export { generateKey, hashKey, keyHint } from '../modules/access/key-format.js';
export { ITEMS, type StoredItemRow } from '../modules/items/columns.js';
export { Random } from './random.js';
