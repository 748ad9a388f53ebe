import { vitestConfig } from '../contract/vitest.shared.js';
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

// `*.embedded.test.ts` and `*.postgres.test.ts` hold what only makes sense on one of the two databases. Each
// project extends this config, so both take the shared include and timeouts.
export default vitestConfig({
  test: {
    // Files share one worker's module graph instead of importing the server afresh each (about 2 s of CPU per file,
    // over some 130 file runs: a third of the suite's CPU). Every file builds its own database and app, and the
    // server keeps no state in modules, so a file cannot see another's.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'embedded',
          exclude: ['test/**/*.postgres.test.ts'],
          globalSetup: ['test/support/global-embedded.ts'],
        },
      },
      ...(postgresBin
        ? [
            {
              extends: true as const,
              test: {
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
