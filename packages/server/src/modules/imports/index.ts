/** Operator imports: files of records read, checked row by row and upserted by their natural key. */

/** The parsers of an import's cells (`field.requiredText(100)`, `field.sku`), by the column kind they read. */
export * as field from './fields.js';
export {
  type ImportKind,
  type ImportOptions,
  type ImportResult,
  kindOf,
  namesIn,
  type Reject,
  type Revalued,
  refuseUnfound,
  refuseUnknown,
  runImport,
  type Written,
} from './importer.js';
export { peopleImport } from './people.js';
export { IMPORT_FORMATS } from './read.js';
export { recordWritten } from './record.js';
export {
  idsByExternalId,
  idsReferencedBy,
  importedFirst,
  type NaturalKey,
  type Upserted,
  upsertByExternalId,
  upsertByKey,
  upsertInChunks,
  upsertWithCreatedAt,
} from './upsert.js';
