import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SYSTEM } from '../../db/actor.js';
import type { Sql } from '../../db/types.js';
import type { Logger } from '../../logger.js';
import { type PollingLoop, startPollingLoop } from '../../polling-loop.js';
import { valuate } from './operator.js';
import { claimDueValuation, finishValuationRun } from './store.js';

/**
 * Runs the valuations organizations scheduled (`valuation policy --every-hours N`): every item of a due organization valued
 * again, applied under its policy. One organization at a time per process, each claimed with a lease so that of many
 * processes one runs it; in the background, never on a request's path.
 */

/** How long a claimed run may take before another process may take it over (this one is taken to have died). */
const LEASE_MS = 60 * 60_000;
/** A run that failed is tried again after this. */
const RETRY_MS = 5 * 60_000;

export function startValuationScheduler(options: { sql: Sql; logger: Logger; pollMs: number }): PollingLoop {
  const { sql, logger } = options;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const loop: PollingLoop = startPollingLoop(
    { pollMs: options.pollMs, logger, failure: 'valuation scheduler pass failed' },
    () => pass(),
  );
  async function pass(): Promise<void> {
    const due = await claimDueValuation(sql, owner, LEASE_MS);
    if (!due) return;
    try {
      const stopped = () => loop.stopped;
      const result = await valuate(sql, {
        org: due.organizationId,
        item: null,
        apply: due.apply,
        stopped,
        actor: SYSTEM.valuations,
      });
      // A run cut short by a shutdown is due again at once, for the next process to start.
      await finishValuationRun(
        sql,
        due.organizationId,
        owner,
        loop.stopped ? { done: false, retryMs: 0 } : { done: true },
      );
      logger.info(
        {
          organizationId: due.organizationId,
          valued: result.valued.length,
          unchanged: result.unchanged.length,
          withoutBasis: result.skipped.length,
          applied: due.apply,
        },
        'scheduled valuation done',
      );
    } catch (error) {
      await finishValuationRun(sql, due.organizationId, owner, { done: false, retryMs: RETRY_MS });
      throw error;
    }
  }
  return loop;
}
