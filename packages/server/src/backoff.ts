/**
 * Exponential backoff with "equal jitter": half the exponential delay fixed, half random, capped. Retries of many
 * jobs or deliveries that failed together spread out instead of hitting a recovering receiver at once. Shared by the
 * marketplace's sync worker and the webhook worker.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
