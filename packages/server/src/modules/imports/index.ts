/** Operator imports: files of records read, checked row by row and upserted by their natural key. */

export { cents, httpUrl, optionalText, requiredText, wholeNumber } from './fields.js';
export {
  type ImportKind,
  type ImportOptions,
  type ImportResult,
  type Revalued,
  runImport,
  type Written,
} from './importer.js';
export { IMPORT_FORMATS } from './read.js';
