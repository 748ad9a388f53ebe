import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Fake clocks drive the SDK's backoff and timeout timers; msw answers through promises, so it needs no timers.
 * `Math.random` is pinned to 0, so backoff has no jitter.
 */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

export type Outcome<T> = { value?: T; error?: unknown };

/** What a call resolved or rejected with, without an unhandled rejection while the clock is driven by hand. */
export const outcomeOf = <T>(call: Promise<T>): Promise<Outcome<T>> =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** Starts a call and runs the clock until it settles. */
export async function settle<T>(call: Promise<T>): Promise<Outcome<T>> {
  const outcome = outcomeOf(call);
  await vi.runAllTimersAsync();
  return outcome;
}
