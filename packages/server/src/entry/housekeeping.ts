import type { Sql } from '../db/types.js';
import type { Logger } from '../logger.js';
import { pruneChanges } from '../modules/changes/index.js';
import { pruneAnswers } from '../modules/idempotency/index.js';
import { deleteReplacedSandboxes } from '../modules/sandbox/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often a server process removes what has outlived its retention; a few minutes late changes nothing. */
const EVERY_MS = 10 * 60 * 1000;

export interface HousekeepingOptions {
  sql: Sql;
  logger: Logger;
  changesRetentionDays: number;
  everyMs?: number;
}

/**
 * One pass: changes past their retention, kept idempotent answers past theirs, and sandboxes that resets replaced
 * (kept meanwhile for the requests that were reading them).
 */
export async function sweepOnce({ sql, changesRetentionDays }: HousekeepingOptions, now = new Date()) {
  const changes = await pruneChanges(sql, new Date(now.getTime() - changesRetentionDays * DAY_MS));
  const answers = await pruneAnswers(sql);
  const sandboxes = await sql.begin((tx) => deleteReplacedSandboxes(tx, { now }));
  return { changes, answers, sandboxes };
}

/**
 * Runs the sweep at start and then every few minutes in each server process (several processes sweeping at once
 * only repeat each other's deletes). A failed pass is logged and retried at the next.
 */
export function startHousekeeping(options: HousekeepingOptions): { stop(): Promise<void> } {
  const { logger, everyMs = EVERY_MS } = options;
  let running: Promise<void> | undefined;
  const pass = () => {
    running ??= sweepOnce(options)
      .then((removed) => {
        if (removed.changes > 0 || removed.answers > 0 || removed.sandboxes > 0)
          logger.info(removed, 'housekeeping removed expired records');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'housekeeping failed; retrying at the next pass'))
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
