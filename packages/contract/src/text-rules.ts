/**
 * The API's rules for the text a caller sends: lengths, refused characters, digits, UUIDs and date-time years.
 * Plain values and functions with no dependency, so a client that must start fast (the CLI) checks a value exactly as
 * the server will without loading zod: `@coinventory/contract/text-rules`. The zod schemas of `primitives.ts` are
 * built from them.
 */

/** Length in characters (Unicode code points), as the spec, JSON Schema and PostgreSQL count them. */
export const characterLength = (value: string): number => {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
};

// PostgreSQL text and jsonb cannot hold U+0000, and unpaired surrogates cannot be encoded as UTF-8:
// accepting either would fail later or silently change the stored text.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (value: string): boolean => !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);

/** A text field's bounds, in characters. */
export interface TextBounds {
  min?: number;
  max: number;
}

/** Why a value breaks a text field's rules, with the API's words for it (`must be at most 200 characters`). */
export type TextProblem = { message: string } & (
  | { kind: 'too_short'; min: number; length: number }
  | { kind: 'too_long'; max: number; length: number }
  | { kind: 'not_storable' }
);

const characters = (n: number): string => `${n} character${n === 1 ? '' : 's'}`;

/** The first rule `value` breaks (length, then storability), or undefined when it keeps them all. */
export function textProblem(value: string, bounds: TextBounds): TextProblem | undefined {
  const { min, max } = bounds;
  const length = characterLength(value);
  if (min !== undefined && length < min) {
    return { kind: 'too_short', min, length, message: `must be at least ${characters(min)}` };
  }
  if (length > max) return { kind: 'too_long', max, length, message: `must be at most ${characters(max)}` };
  if (!isStorableText(value)) {
    return { kind: 'not_storable', message: 'must not contain NUL characters or unpaired surrogates' };
  }
  return undefined;
}

const DIGITS = /^[0-9]+$/;

/** A whole number as the API reads one from text: plain digits only (`1e1`, `0x10`, ` 5` and `1.0` are not). */
export const isDigits = (value: string): boolean => DIGITS.test(value);

/**
 * A UUID in either case, as the API's ids are checked: the pattern of zod's `uuid()`, which the schemas use (a test
 * holds the two together).
 */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Years an input date-time may fall in, once converted to UTC. PostgreSQL and JavaScript disagree on years below
 * 100 (JavaScript reads them as 19xx), and an offset can push 9999-12-31 into year 10000: both would change or
 * lose the value, so the range is bounded where every layer agrees.
 */
export const DATE_TIME_YEARS = { min: 1000, max: 9999 } as const;

export const isStorableYear = (utcYear: number): boolean =>
  utcYear >= DATE_TIME_YEARS.min && utcYear <= DATE_TIME_YEARS.max;

export const DATE_TIME_YEARS_MESSAGE = `must fall between the years ${DATE_TIME_YEARS.min} and ${DATE_TIME_YEARS.max} (UTC)`;

/**
 * The one attribute key refused by name: `__proto__` cannot survive being copied into a plain object (it would be
 * dropped silently), so the API refuses it rather than lose it.
 */
export const RESERVED_ATTRIBUTE_KEY = '__proto__';
