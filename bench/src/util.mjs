import { createHash } from 'node:crypto';

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export { freePort } from '@coinventory/test-server';

/**
 * The id of item `n` of an organization: the MD5 of `<slug>/<n>` read as a UUID. The load generator and the
 * pgbench scripts derive the same ids from a random `n` (PostgreSQL: `md5(slug || '/' || n)::uuid`), so both
 * sample the same rows without a lookup table.
 * @param {string} slug
 * @param {number} n
 */
export function itemId(slug, n) {
  const h = createHash('md5').update(`${slug}/${n}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Percentile of sorted values (nearest rank).
 * @param {Float64Array | number[]} sorted
 * @param {number} p  0..100
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return /** @type {number} */ (sorted[rank]);
}

/** @param {number} ms */
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Logs a progress line to stderr (stdout carries only the final table).
 * @param {string} message
 */
export function log(message) {
  const t = new Date().toISOString().slice(11, 19);
  process.stderr.write(`[bench ${t}] ${message}\n`);
}
