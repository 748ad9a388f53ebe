import type { Logger } from 'pino';
import type { Queryable } from '../../db/types.js';
import { touchKey } from './store.js';

/** last_used_at is written at most this often per key. */
export const KEY_USAGE_INTERVAL_SECONDS = 60;

/**
 * Records key use off the request's critical path: at most one write per key per interval from this process,
 * and the database's own condition keeps it to about one per interval across every process.
 */
export function keyUsageRecorder(sql: Queryable, logger: Logger) {
  const lastWritten = new Map<string, number>();
  return (apiKey: { id: string; lastUsedAt: Date | null }) => {
    const now = Date.now();
    const last = Math.max(apiKey.lastUsedAt?.getTime() ?? 0, lastWritten.get(apiKey.id) ?? 0);
    if (now - last < KEY_USAGE_INTERVAL_SECONDS * 1000) return;
    lastWritten.set(apiKey.id, now);
    setImmediate(() => {
      touchKey(sql, apiKey.id, KEY_USAGE_INTERVAL_SECONDS).catch((error: unknown) => {
        logger.warn({ err: error, keyId: apiKey.id }, 'could not record key use');
      });
    });
  };
}
