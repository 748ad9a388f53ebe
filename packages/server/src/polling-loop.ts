import type { Logger } from 'pino';

/** A background worker's loop: run a pass, then sleep until `pollMs` has passed or someone kicks it. */
export interface PollingLoop {
  /** Run the next pass now. A kick during a pass is kept: the next pass starts as soon as this one ends. */
  kick(): void;
  /** Whether stop() was called: a pass checks it to end early. */
  readonly stopped: boolean;
  /** Ends the loop after the pass under way, and waits for it. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` over and over, `pollMs` apart unless kicked. A pass that throws is logged as `failure` and the loop
 * goes on: a database that is away for a while must not end a worker.
 */
export function startPollingLoop(
  { pollMs, logger, failure }: { pollMs: number; logger: Logger; failure: string },
  pass: () => Promise<unknown>,
  { autostart = true } = {},
): PollingLoop {
  let stopped = false;
  let kicked = false;
  let wake: (() => void) | undefined;
  const run = async () => {
    while (!stopped) {
      kicked = false;
      try {
        await pass();
      } catch (error) {
        logger.error({ err: error }, failure);
      }
      if (stopped) break;
      if (kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };
  // The first pass starts once the caller holds the loop, so a pass may read `stopped` from it.
  const running = autostart ? Promise.resolve().then(run) : Promise.resolve();
  return {
    kick: () => {
      kicked = true;
      wake?.();
    },
    get stopped() {
      return stopped;
    },
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
