import { CI_SLOWDOWN, vitestConfig, yieldToServerSuiteInCi } from '@coinventory/vitest-config';

yieldToServerSuiteInCi();

export default vitestConfig({
  test: {
    // Samples start servers and CLIs; the browser test drives Chromium.
    testTimeout: 90_000 * CI_SLOWDOWN,
    hookTimeout: 180_000 * CI_SLOWDOWN,
    // One file at a time: each starts its own server, and the browser wants a core to itself.
    fileParallelism: false,
  },
});
