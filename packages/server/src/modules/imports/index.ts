/** Operator imports: files of records read, checked row by row and upserted by their natural key. */

export {
  cents,
  dateText,
  externalId,
  httpUrl,
  oneOf,
  optionalDate,
  optionalEmail,
  optionalText,
  PERSON_FIELDS,
  PersonRow,
  requiredText,
  sku,
  wholeNumber,
} from './fields.js';
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
export {
  idsByExternalId,
  importedFirst,
  type NaturalKey,
  type Upserted,
  upsertByExternalId,
  upsertByKey,
  upsertInChunks,
  upsertWithCreatedAt,
} from './upsert.js';
