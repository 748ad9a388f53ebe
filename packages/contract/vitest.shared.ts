import { mergeConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The settings every package's vitest config starts from; each config states only what differs. It lives in the
 * contract because every other package builds on the contract: a change here changes the hash of their build and
 * so of their tests, and the contract's own tsconfig (rootDir ".") can still reach it.
 */
const base: ViteUserConfig = {
  test: {
    include: ['test/**/*.test.ts'],
    // Most suites start a real server, a database or a child process: a test waits on I/O, a hook on a start.
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
};

/** The base with `overrides` merged in (arrays are concatenated, objects merged, other values replaced). */
export function vitestConfig(overrides: ViteUserConfig = {}): ViteUserConfig {
  return mergeConfig(base, overrides);
}
