import os from 'node:os';
import { mergeConfig, type ViteUserConfig } from 'vitest/config';

// The settings every package's vitest config starts from; each config states only what differs. A private package
// that each package lists as a dev dependency, so a change here changes the hash of their tests (Turborepo).

/**
 * How much longer a test may take in CI than on a developer's machine: there every package's suite runs at once on
 * two cores, and a test that starts processes takes several times what it takes alone. A timeout is there to catch a
 * hang, not to judge speed (benchmarks measure that).
 */
export const CI_SLOWDOWN = process.env.CI ? 4 : 1;

const base: ViteUserConfig = {
  test: {
    include: ['test/**/*.test.ts'],
    // Most suites start a real server, a database or a child process: a test waits on I/O, a hook on a start.
    testTimeout: 30_000 * CI_SLOWDOWN,
    hookTimeout: 90_000 * CI_SLOWDOWN,
  },
};

/**
 * In CI, runs this suite (and the servers and CLIs it starts, which inherit it) at a lower CPU priority than the
 * server's. The server's suite runs one file at a time and is the longest: when it has to share the two cores
 * equally with three other suites it finishes minutes after them, alone on one core. Given the CPU first, it
 * finishes with them, and their work fills the other core. Nothing changes outside CI. (Two files at a time were
 * tried: the suite's own CPU grew by a sixth, which the other suites, sharing the same two cores, paid for.)
 */
export function yieldToServerSuiteInCi(): void {
  if (process.env.CI) os.setPriority(10);
}

/** The base with `overrides` merged in (arrays are concatenated, objects merged, other values replaced). */
export function vitestConfig(overrides: ViteUserConfig = {}): ViteUserConfig {
  return mergeConfig(base, overrides);
}
