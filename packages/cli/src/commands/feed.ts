import type { ChangeType } from '@coinventory/contract/constants';
import { APIConnectionError, APIError, type ChangeList, type Coinventory } from '@coinventory/sdk';
import { errorMessage } from '../errors.js';
import type { IO } from '../io.js';
import { pause } from '../signals.js';

// Reading the changes feed page by page, and following it through an API that fails for a while: what `changes` and
// `listen` share.

/** Failures a follower outlives: the API unreachable, failing (5xx) or limiting it (429) beyond the SDK's retries. */
const transient = (error: unknown): boolean =>
  error instanceof APIConnectionError || (error instanceof APIError && (error.status >= 500 || error.status === 429));

/** The wait before a follower's next try after `failures` transient failures in a row: 1 s, 2 s, 4 s… up to 30 s. */
const backoffSeconds = (failures: number): number => Math.min(2 ** (failures - 1), 30);
/** Failures more than this apart are not "in a row". */
const BACKOFF_RESET_MS = 60_000;

/** Where a reader of the feed is: the cursor after the last page it has handled (and past pages with nothing in it). */
export interface FeedPosition {
  cursor: string | undefined;
}

/** What to read of the feed, from `position.cursor`, and how. */
export interface FeedReading {
  client: Coinventory;
  types: readonly ChangeType[] | undefined;
  limit?: number | undefined;
  /** Keep polling at the end of the feed until `signal` aborts, riding out an API that fails for a while. */
  follow: boolean;
  pollIntervalMs: number;
  /** Aborted by Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  io: IO;
  /** The progress line while waiting for a page (shown on a terminal only). */
  waiting: string;
}

/**
 * Reads the feed from `position.cursor`, handing `handle` each page that holds changes and moving the position after
 * it once handled; with `follow`, polls until stopped, and a lost connection, a 5xx or a 429 is announced and retried
 * with backoff rather than ending the run. Throws what it does not retry, with the position where it was.
 */
export async function readFeed(
  reading: FeedReading,
  position: FeedPosition,
  handle: (page: ChangeList) => Promise<void>,
): Promise<void> {
  const { client, types, limit, follow, pollIntervalMs, signal, io } = reading;
  let failures = 0;
  let lastFailure = 0;
  for (;;) {
    const feed = client.changes.pages({ after: position.cursor, limit, types, follow, pollIntervalMs }, { signal });
    io.progress.update(reading.waiting);
    try {
      for await (const page of feed) {
        io.progress.clear();
        await handle(page);
        position.cursor = page.nextCursor;
      }
      // Past the pages that held nothing: the feed's end, beyond the changes `types` leaves out.
      position.cursor = feed.cursor ?? position.cursor;
      return;
    } catch (error) {
      position.cursor = feed.cursor ?? position.cursor;
      if (!follow || signal.aborted || !transient(error)) throw error;
      // An empty poll yields nothing, so a follower that has been fine for a minute starts its backoff afresh.
      failures = Date.now() - lastFailure > BACKOFF_RESET_MS ? 1 : failures + 1;
      lastFailure = Date.now();
      const wait = backoffSeconds(failures);
      io.notice(io.errStyle.yellow(`${errorMessage(error)}; trying again in ${wait}s… (Ctrl-C to stop)`));
      await pause(wait * 1000, signal);
      if (signal.aborted) return;
    }
  }
}
