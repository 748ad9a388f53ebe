/**
 * The types a table's column declares (`db/table.ts`): how its value arrives from postgres.js and what TypeScript
 * type it has in a row. Kept apart from the table builder, as a table's module names many of them and few of it.
 */

/** How a value arrives from postgres.js: timestamps as Date (shown as ISO 8601), the rest as they are. */
type Kind = 'value' | 'timestamp' | 'json';

export interface ColumnType<T> {
  readonly kind: Kind;
  /** Phantom: the TypeScript type of the column's value in a row. */
  readonly sample?: T;
}

export const text: ColumnType<string> = { kind: 'value' };
export const integer: ColumnType<number> = { kind: 'value' };
export const boolean: ColumnType<boolean> = { kind: 'value' };
export const timestamp: ColumnType<Date> = { kind: 'timestamp' };
export const json = <T>(): ColumnType<T> => ({ kind: 'json' });
/** A value postgres.js gives as it is, narrower than its column's type: an enum kept as text, a text array. */
export const value = <T>(): ColumnType<T> => ({ kind: 'value' });
export const nullable = <T>(type: ColumnType<T>): ColumnType<T | null> => type;
