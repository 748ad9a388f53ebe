import { EXIT } from './errors.js';
import { Progress } from './io.js';

// Ctrl-C and SIGTERM. Ctrl-C ends a command at once with 130, as shells expect, and SIGTERM kills it, as Node does by
// default; a command that runs until it is told to stop (`changes --follow`) takes both over while it runs, so that
// stopping it is its normal end: it finishes cleanly, says where to resume, and exits 0.

/** The command running until stopped, if any. */
let stoppable: AbortController | undefined;

/** 128 + the signal's number, as shells report a process a signal ended. */
const SIGNAL_EXIT = { SIGINT: EXIT.INTERRUPTED, SIGTERM: 143 } as const;

function onSignal(signal: keyof typeof SIGNAL_EXIT): void {
  // The first signal asks the command to stop; a second one, while it is stopping, ends the process at once.
  if (stoppable && !stoppable.signal.aborted) {
    stoppable.abort(signal);
    return;
  }
  Progress.active?.clear();
  process.exit(SIGNAL_EXIT[signal]);
}

/** Installs the handlers (main.ts, once): SIGINT always, SIGTERM only while a command runs until stopped. */
export function handleInterrupts(): void {
  process.on('SIGINT', () => onSignal('SIGINT'));
}

const onSigterm = (): void => onSignal('SIGTERM');

/**
 * Runs `task` with a signal that Ctrl-C or SIGTERM aborts instead of ending the process; `task` is to stop soon
 * after, and what it returns is the command's result. A second Ctrl-C or SIGTERM still ends the process at once.
 */
export async function untilStopped<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  stoppable = controller;
  process.on('SIGTERM', onSigterm);
  try {
    return await task(controller.signal);
  } finally {
    process.off('SIGTERM', onSigterm);
    stoppable = undefined;
  }
}

/**
 * The exit code of a command that `signal` stopped before it was done (130 for Ctrl-C, 143 for SIGTERM), for commands
 * whose normal end is not being stopped; undefined when it was not stopped.
 */
export function stoppedExitCode(signal: AbortSignal): number | undefined {
  if (!signal.aborted) return undefined;
  return signal.reason === 'SIGTERM' ? SIGNAL_EXIT.SIGTERM : SIGNAL_EXIT.SIGINT;
}

/** Resolves after `ms`, or at once when `signal` aborts: a wait that Ctrl-C or SIGTERM cuts short. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
