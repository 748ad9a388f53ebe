import { vitestConfig } from '../../packages/contract/vitest.shared.js';

export default vitestConfig({
  test: {
    // Samples start servers and CLIs; the browser test drives Chromium.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // One file at a time: each starts its own server, and the browser wants a core to itself.
    fileParallelism: false,
  },
});
