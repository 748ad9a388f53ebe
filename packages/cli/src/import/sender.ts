import { createHash } from 'node:crypto';
import { IDEMPOTENCY } from '@coinventory/contract/constants';
import { type BatchItemsResult, type Coinventory, RateLimitError } from '@coinventory/sdk';
import { CliError } from '../errors.js';
import type { IO } from '../io.js';
import { groupDigits } from '../output/format.js';
import { pause } from '../signals.js';
import { formatDuration, type ImportProgress } from './progress.js';
import { parseRateLimit, type RateLimitWatch, RESERVE } from './rate-limit.js';
import type { ImportState } from './state.js';

// Sending an import's batches (`POST /items/batch`): each with an Idempotency-Key of its own, at the pace the rate
// limit headers set, and again with the same key after a 429.

/** Times a batch is sent again after the SDK's own retries ended in a 429. */
const RATE_LIMITED_ATTEMPTS = 5;

/**
 * The Idempotency-Key of one batch: the same for the same batch of the same import, so sending it again (after a
 * lost answer, or on resuming) gets the API's first answer rather than applying it twice.
 */
function batchKey(state: ImportState, index: number, body: string): string {
  const digest = createHash('sha256')
    .update(`${state.runId}\n${state.sha256}\n${state.mode}\n${index}\n${body}`)
    .digest('hex');
  const key = `coinventory-import-${digest}`;
  if (!IDEMPOTENCY.keyPattern.test(key)) throw new Error('unreachable: an Idempotency-Key out of pattern');
  return key;
}

export interface SenderOptions {
  client: Coinventory;
  /** The import's state: its mode, and the batches done so far (the next batch's index in its key). */
  state: ImportState;
  dryRun: boolean;
  io: IO;
  /** Aborted by Ctrl-C or SIGTERM: no batch is sent after it. */
  signal: AbortSignal;
  progress: ImportProgress;
  limits: RateLimitWatch;
}

export class BatchSender {
  readonly #options: SenderOptions;
  /** Pauses this run made to stay under the rate limit. */
  pauses = 0;
  /** Batches the API had already applied and answered again from its record. */
  replayedBatches = 0;
  /** A batch is on its way: stopping now waits for its answer. */
  inFlight = false;
  #pauseUntil = 0;
  /** The pause is the rate limit's (counted and announced), not a Retry-After's (announced with its 429). */
  #pauseForLimit = false;

  constructor(options: SenderOptions) {
    this.#options = options;
  }

  /** Sends one batch, paced, again after a 429 with the same key; undefined when stopped before it was sent. */
  async send(items: Array<Record<string, unknown>>): Promise<BatchItemsResult | undefined> {
    const { client, state, dryRun, io, signal } = this.#options;
    const body = { mode: state.mode, items };
    const key = dryRun ? undefined : batchKey(state, state.batchesDone, JSON.stringify(body.items));
    for (let attempt = 1; ; attempt += 1) {
      if (!(await this.#paced())) return undefined;
      this.inFlight = true;
      try {
        const { data, response } = await client.items
          .batch(body, dryRun ? { dryRun: true } : {}, key ? { idempotencyKey: key } : {})
          .withResponse();
        const limit = parseRateLimit(response.headers.get('ratelimit'));
        if (limit && limit.remaining <= RESERVE) {
          this.#pauseUntil = Date.now() + limit.resetSeconds * 1000;
          this.#pauseForLimit = true;
        }
        if (response.headers.get(IDEMPOTENCY.replayedHeader.toLowerCase()) === 'true') this.replayedBatches += 1;
        if (data.results.length !== items.length) {
          throw new CliError(`The API answered ${data.results.length} results for a batch of ${items.length} items.`);
        }
        return data;
      } catch (error) {
        if (!(error instanceof RateLimitError) || attempt >= RATE_LIMITED_ATTEMPTS || signal.aborted) throw error;
        const wait = error.retryAfter ?? 1;
        this.#pauseUntil = Date.now() + wait * 1000;
        this.#pauseForLimit = false;
        io.notice(
          io.errStyle.yellow(
            `Rate limited (429): sending the same batch again in ${wait} s (the API applies it once).`,
          ),
        );
      } finally {
        this.inFlight = false;
      }
    }
  }

  /** Waits out a pause the rate limit asked for; false when stopped meanwhile. */
  async #paced(): Promise<boolean> {
    const { signal, progress, limits } = this.#options;
    const wait = this.#pauseUntil - Date.now();
    if (wait > 0) {
      if (this.#pauseForLimit) {
        this.pauses += 1;
        const policy = limits.policy
          ? ` (${groupDigits(limits.policy.quota)} requests per ${limits.policy.windowSeconds} s)`
          : '';
        progress.waiting(`Waiting ${formatDuration(wait)} for the rate limit${policy}…`);
      }
      await pause(wait, signal);
    }
    return !signal.aborted;
  }
}
