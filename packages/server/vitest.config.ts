import { defineConfig } from 'vitest/config';
import { findPostgresBin } from './src/testing/postgres-cluster.js';

/**
 * The suite runs twice: on the embedded database (PGlite) and on a throwaway PostgreSQL cluster started from
 * this machine's server binaries. Without binaries the second run is left out with a note, except in CI,
 * where it is required.
 */
const postgresBin = findPostgresBin();
if (!postgresBin) {
  if (process.env.CI) throw new Error('CI needs PostgreSQL server binaries (/usr/lib/postgresql/*/bin or PG_BIN)');
  console.warn('[coinventory] No PostgreSQL server binaries found: running the suite on the embedded database only.');
}

// `*.embedded.test.ts` and `*.postgres.test.ts` hold what only makes sense on one of the two databases.
const shared = { include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'embedded', exclude: ['test/**/*.postgres.test.ts'] } },
      ...(postgresBin
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                exclude: ['test/**/*.embedded.test.ts'],
                globalSetup: ['test/support/global-postgres.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
