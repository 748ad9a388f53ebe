/** How the reports write numbers. */

/** A whole number with thousands separators. @param {number} n */
export const int = (n) => Math.round(n).toLocaleString('en-US');
/** Milliseconds to three significant figures or so. @param {number} ms */
export const ms = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
/** A ratio as a whole percentage. @param {number} r */
export const pct = (r) => `${Math.round(r * 100)}%`;
/** The mean, 0 of none. @param {number[]} values */
export const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
