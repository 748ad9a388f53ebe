import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The integration suite starts the real server (about 15 s on a fresh embedded database); the package suite
    // packs, installs and type-checks the built package.
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
