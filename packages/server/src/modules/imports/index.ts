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
  type Reject,
  type Revalued,
  refuseUnknown,
  runImport,
  type Upserted,
  upsertInChunks,
  upsertWithCreatedAt,
  type Written,
} from './importer.js';
export { IMPORT_FORMATS } from './read.js';
