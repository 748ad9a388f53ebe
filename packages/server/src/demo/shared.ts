/**
 * What the benchmark's seeding shares with the server (the package's `demo-data` entry): the demo's seeded
 * generator, and the items table's one declaration, whose stored columns are the benchmark's COPY column list.
 * The declaration comes from its own file, not the items module's index, so this entry loads no routes or services.
 */
export { ITEMS, type StoredItemRow } from '../modules/items/columns.js';
export { Random } from './random.js';
