import { existsSync } from 'node:fs';
import { findPostgresBin } from '@coinventory/test-server';
import { vitestConfig } from '@coinventory/vitest-config';

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

/**
 * Files whose every assertion is settled before a statement reaches the database (the HTTP layer: headers,
 * challenges, refused bodies, malformed requests, slow bodies and headers, ETags, the docs page), or by the same code
 * on either database (a start-up setting's wiring into the app), answer the same on both, so they run once: on the
 * PostgreSQL cluster where there is one (the faster of the two), else on the embedded database. Everything whose
 * outcome depends on how SQL runs on them runs on both.
 */
const HTTP_LAYER_FILES = [
  'test/api/challenges.test.ts',
  'test/api/response-headers.test.ts',
  'test/api/validation-body.test.ts',
  'test/http/app.test.ts',
  'test/http/conditional.test.ts',
  'test/http/cors.test.ts',
  'test/http/docs.test.ts',
  'test/http/host-header.test.ts',
  'test/http/hostile-http.test.ts',
  'test/http/responses.test.ts',
  'test/http/slow-requests.test.ts',
  'test/http/version-hint.test.ts',
  'test/modules/access/failed-auth-setting.test.ts',
];
// A renamed file would otherwise silently run twice again.
for (const file of HTTP_LAYER_FILES) {
  if (!existsSync(new URL(file, import.meta.url))) throw new Error(`vitest.config.ts names a missing file: ${file}`);
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
          exclude: ['test/**/*.postgres.test.ts', ...(postgresBin ? HTTP_LAYER_FILES : [])],
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
