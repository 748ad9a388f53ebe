import { actAs, SYSTEM } from '../../db/actor.js';
import type { Sql } from '../../db/types.js';
import type { Logger } from '../../logger.js';
import { type PollingLoop, startPollingLoop } from '../../polling-loop.js';
import type { WriteNotifier } from '../../request/pipeline.js';
import { endHeld } from './service.js';
import { dueReservations } from './store.js';

/** Due reservations read per pass; a pass goes on while it finds a full batch. */
const BATCH = 200;

/**
 * Gives back the units of held reservations whose `expiresAt` has passed, every `pollMs`: each in a transaction of its
 * own that locks the item, then the reservation, and ends it only if it is still held and due. Those row locks are its
 * lease: of several processes' workers, one ends each reservation, and a worker that dies mid-way loses its locks
 * with its connection, so the next pass (here or in another process, after a restart too) takes the reservation up.
 */
export function startReservationExpiry(options: {
  sql: Sql;
  logger: Logger;
  pollMs: number;
  notify: WriteNotifier;
}): PollingLoop {
  const { sql, logger, notify } = options;
  const loop: PollingLoop = startPollingLoop(
    { pollMs: options.pollMs, logger, failure: 'reservation expiry pass failed' },
    async () => {
      for (;;) {
        const due = await dueReservations(sql, BATCH);
        let expired = 0;
        for (const { organizationId, id } of due) {
          if (loop.stopped) return;
          const queued = { sync: false, webhooks: false };
          const ended = await sql.begin(async (tx) => {
            await actAs(tx, SYSTEM.reservationExpiry);
            return endHeld(tx, organizationId, id, 'expired', {
              syncQueued: () => {
                queued.sync = true;
              },
              webhooksQueued: () => {
                queued.webhooks = true;
              },
            });
          });
          // Told once committed, as a request's write tells them.
          if (queued.sync) notify.syncQueued();
          if (queued.webhooks) notify.webhooksQueued();
          if (ended) expired += 1;
        }
        if (expired > 0) logger.info({ expired }, 'reservations expired');
        if (due.length < BATCH) return;
      }
    },
  );
  return loop;
}
