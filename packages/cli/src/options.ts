import { LIMITS } from '@coinventory/contract/constants';
import {
  DATE_TIME_YEARS_MESSAGE,
  isDigits,
  isStorableYear,
  RESERVED_ATTRIBUTE_KEY,
  type TextBounds,
  textProblem,
  UUID_PATTERN,
} from '@coinventory/contract/text-rules';
import { InvalidArgumentError } from 'commander';
import { groupDigits } from './output/format.js';

/**
 * Parsers for option values. Each checks a value against the contract's bounds and rules before any request and
 * throws commander's InvalidArgumentError with the reason, which commander prints as
 * `error: option '--limit <n>' argument '500' is invalid. Must be a whole number from 1 to 100.` (exit 2).
 */

/** The API's lower-case reason as a sentence: `must be …` → `Must be ….` */
const sentence = (reason: string): string => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;

/** A whole number written in digits, within `min`..`max`. */
export function integer(bounds: { min: number; max?: number }): (value: string) => number {
  const range =
    bounds.max === undefined ? `of at least ${bounds.min}` : `from ${bounds.min} to ${groupDigits(bounds.max)}`;
  return (value) => {
    const n = isDigits(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < bounds.min || (bounds.max !== undefined && n > bounds.max)) {
      throw new InvalidArgumentError(`Must be a whole number ${range}, written in digits.`);
    }
    return n;
  };
}

/**
 * A signed whole number within `min`..`max`: digits with an optional `+` or `-` (`-1`, `+1`, `3`). Commander gives an
 * option that takes a value the next word even when it starts with `-`, so `--available -1` works as `--available=-1`.
 */
export function signedInteger(bounds: { min: number; max: number }): (value: string) => number {
  const range = `from ${bounds.min < 0 ? '-' : ''}${groupDigits(Math.abs(bounds.min))} to ${groupDigits(bounds.max)}`;
  return (value) => {
    const sign = value.startsWith('-') ? -1 : 1;
    const digits = /^[+-]/.test(value) ? value.slice(1) : value;
    const n = isDigits(digits) ? sign * Number(digits) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < bounds.min || n > bounds.max) {
      throw new InvalidArgumentError(
        `Must be a whole number ${range}, written in digits with an optional sign: -1, +1.`,
      );
    }
    // -0 is 0: JSON writes both as 0, but a check for "no change" should not have to know.
    return n === 0 ? 0 : n;
  };
}

/** Text of `min`..`max` characters that the API can store. */
export function text(bounds: TextBounds): (value: string) => string {
  return (value) => checkText(value, bounds);
}

function checkText(value: string, bounds: TextBounds): string {
  const problem = textProblem(value, bounds);
  if (!problem) return value;
  // Past the maximum, the length found helps to cut the text to fit.
  const reason = problem.kind === 'too_long' ? `${problem.message} (got ${problem.length})` : problem.message;
  throw new InvalidArgumentError(sentence(reason));
}

export function uuid(value: string): string {
  if (!UUID_PATTERN.test(value))
    throw new InvalidArgumentError('Must be a UUID, like 3f5a7dec-b331-4659-8f5a-474ef56754dd.');
  return value;
}

/** An absolute http(s) URL; `example` is shown when it is not one. */
export function httpUrl(example: string): (value: string) => string {
  return (value) => {
    const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new InvalidArgumentError(`Must be an absolute http(s) URL, such as ${example}.`);
    }
    return value;
  };
}

/**
 * A dollar amount to integer cents, exactly: `125`, `125.5`, `125.50`, `$1250` (at most two decimals; no
 * thousands separators, no sign). Done on the digits, never through floating point.
 */
export function dollars(value: string): number {
  const match = /^\$?([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(value.trim());
  if (!match) {
    throw new InvalidArgumentError(
      'Must be an amount in dollars like 125, 125.5 or 125.50: digits, at most 2 decimals, no commas or sign. For cents, use the -cents option.',
    );
  }
  const cents = BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return checkCents(cents);
}

/** A whole number of cents. */
export function cents(value: string): number {
  if (!isDigits(value)) {
    throw new InvalidArgumentError('Must be a whole number of cents, written in digits (12500 is $125.00).');
  }
  return checkCents(BigInt(value));
}

function checkCents(cents: bigint): number {
  if (cents > BigInt(LIMITS.cents.max)) {
    throw new InvalidArgumentError(`Must be at most ${LIMITS.cents.max} cents.`);
  }
  return Number(cents);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2}))$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * An ISO 8601 date-time with `Z` or a numeric offset (`2026-03-01T14:30:00Z`, `2026-03-01T09:30-05:00`), or a date
 * alone (`2026-03-01`), which means midnight UTC. The day must exist, and the year be 1000 to 9999 in UTC.
 */
export function dateTime(value: string): string {
  const dateOnly = DATE_ONLY.exec(value);
  const iso = dateOnly ? `${value}T00:00:00Z` : value;
  const match = dateOnly ?? DATE_TIME.exec(value);
  if (!match) {
    throw new InvalidArgumentError(
      'Must be a date (2026-03-01, read as midnight UTC) or an ISO 8601 date-time with Z or an offset (2026-03-01T14:30:00Z, 2026-03-01T09:30:00-05:00).',
    );
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const [hour, minute, second] = dateOnly ? [0, 0, 0] : [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) {
    throw new InvalidArgumentError(`${value} is not a real date and time.`);
  }
  if (!isStorableYear(new Date(iso).getUTCFullYear()))
    throw new InvalidArgumentError(sentence(DATE_TIME_YEARS_MESSAGE));
  return iso;
}

/** A value of `allowed`, for options that take a list (`--clear`); commander's `choices` covers single values. */
export function oneOf<T extends string>(allowed: readonly T[]): (value: string) => T {
  return (value) => {
    const found = allowed.find((candidate) => candidate === value);
    if (found === undefined) throw new InvalidArgumentError(`Allowed values are ${allowed.join(', ')}.`);
    return found;
  };
}

/** Collects a repeatable option into an array. */
export function repeatable<T>(parse: (value: string) => T): (value: string, previous: T[] | undefined) => T[] {
  return (value, previous) => [...(previous ?? []), parse(value)];
}

export type AttributeValue = string | number | boolean | null;

/**
 * One `--attr` entry: `key=value`, the value read as a number, `true`/`false` or `null` when it is exactly one
 * (`year=1921`, `proof=true`); otherwise a string. `key:=json` takes the value as JSON (`year:='"1921"'` for the
 * string). Numbers with leading zeros (`cert=007`) or beyond 2^53 stay strings.
 */
export function attribute(entry: string): readonly [string, AttributeValue] {
  const eq = entry.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError('Must be key=value (or key:=json), e.g. year=1921 or mint=Philadelphia.');
  let key = entry.slice(0, eq);
  const raw = entry.slice(eq + 1);
  let value: AttributeValue;
  if (key.endsWith(':')) {
    key = key.slice(0, -1);
    value = jsonAttributeValue(raw, key);
  } else {
    value = inferValue(raw);
  }
  checkAttributeKey(key);
  return [key, checkAttributeValue(key, value)];
}

function inferValue(raw: string): AttributeValue {
  if (raw === 'null') return null;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(raw)) {
    const n = Number(raw);
    const integral = /^-?[0-9]+$/.test(raw);
    if (Number.isFinite(n) && (!integral || Number.isSafeInteger(n))) return n;
  }
  return raw;
}

function jsonAttributeValue(raw: string, key: string): AttributeValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidArgumentError(
      `The value of ${key}:= is not valid JSON (a quoted string, number, boolean or null).`,
    );
  }
  if (parsed === null || typeof parsed === 'string' || typeof parsed === 'boolean') return parsed;
  if (typeof parsed === 'number' && Number.isFinite(parsed)) return parsed;
  throw new InvalidArgumentError(
    `The value of ${key} must be a string, number, boolean or null, not an object or array.`,
  );
}

function checkAttributeKey(key: string): void {
  const { keyMax } = LIMITS.attributes;
  const problem = textProblem(key, { min: 1, max: keyMax });
  if (problem && problem.kind !== 'not_storable') {
    throw new InvalidArgumentError(`Attribute keys must be 1 to ${keyMax} characters.`);
  }
  if (key === RESERVED_ATTRIBUTE_KEY) throw new InvalidArgumentError(`${RESERVED_ATTRIBUTE_KEY} is a reserved key.`);
  checkText(key, { max: keyMax });
}

function checkAttributeValue(key: string, value: AttributeValue): AttributeValue {
  if (typeof value === 'string') {
    try {
      checkText(value, { max: LIMITS.attributes.stringValueMax });
    } catch (error) {
      throw new InvalidArgumentError(`Attribute ${key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return value;
}

/** Attribute entries to a map: at most LIMITS.attributes.maxKeys keys, each key once. */
export function attributeMap(
  entries: ReadonlyArray<readonly [string, AttributeValue]>,
): Record<string, AttributeValue> {
  const map: Record<string, AttributeValue> = {};
  for (const [key, value] of entries) {
    if (Object.hasOwn(map, key)) throw new InvalidArgumentError(`Attribute ${key} is given twice.`);
    map[key] = value;
  }
  const { maxKeys } = LIMITS.attributes;
  if (Object.keys(map).length > maxKeys) throw new InvalidArgumentError(`At most ${maxKeys} attributes are allowed.`);
  return map;
}

/** `--attributes-json '{"year":1921}'`: a JSON object of string, number, boolean or null values. */
export function attributesJson(value: string): Record<string, AttributeValue> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`Not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidArgumentError('Must be a JSON object, e.g. {"year":1921,"mint":"Philadelphia"}.');
  }
  const entries = Object.entries(parsed).map(([key, raw]): readonly [string, AttributeValue] => {
    checkAttributeKey(key);
    if (raw !== null && typeof raw !== 'string' && typeof raw !== 'boolean' && typeof raw !== 'number') {
      throw new InvalidArgumentError(`Attribute ${key} must be a string, number, boolean or null.`);
    }
    return [key, checkAttributeValue(key, raw)];
  });
  // JSON.parse already drops duplicate keys (the last wins) and keeps `__proto__` as an own key, refused above.
  return attributeMap(entries);
}
