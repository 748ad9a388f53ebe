import type { Random } from '../random.js';

/** What every builder works from, and the small helpers they share. */

export interface BuildContext {
  organizationId: string;
  now: Date;
  /** Data choices (dates within a day, costs, images, comps). */
  random: Random;
  /** Row ids, on their own stream so adding a row does not reshuffle the data. */
  ids: Random;
}

/** A moment during shop hours (US Mountain) on the day `daysAgo` days before now. */
export function dayBefore(context: BuildContext, daysAgo: number): Date {
  const base = addDays(context.now, -daysAgo);
  base.setUTCHours(context.random.int(15, 23), context.random.int(0, 59), context.random.int(0, 59), 0);
  return base;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const addHours = (date: Date, hours: number): Date => new Date(date.getTime() + hours * HOUR_MS);
export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);
export const dollars = (cents: number): string =>
  `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
/** Estimates and comps are quoted to the dollar. */
export const roundToDollar = (cents: number): number => Math.round(cents / 100) * 100;

export function required<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`demo seed: unknown ${what} ${String(key)}`);
  return value;
}
