import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Samples start servers and CLIs; the browser test drives Chromium.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // One file at a time: each starts its own server, and the browser wants a core to itself.
    fileParallelism: false,
  },
});
