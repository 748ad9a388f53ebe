import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';
import { INITDB_IMAGE_NAME, writeInitdbImage } from './src/db/initdb-image.js';

// The binary: one ESM entry with a shebang. Dependencies stay in node_modules (PGlite loads its WebAssembly from
// there), except postgres.js: the build carries the patched copy (patches/README.md), which an install from the
// registry would not get. Beside it, `demo-data` (with types, for the repository's benchmark only: they name
// postgres.js's, which an install from the registry does not have): what its seeding shares with the demo. (The test
// harness is the private tooling/test-server package, not part of the published server.)
//
// The build also writes an empty embedded cluster, dist/pglite-initdb.tar.gz (src/db/initdb-image.ts).
//
// Swagger UI's files (for /docs) are copied into dist/swagger-ui with their licence, so swagger-ui-dist is not a
// dependency: installing it runs @scarf/scarf's install script, which reports the install to a third party.
const SWAGGER_UI_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'favicon-32x32.png',
  'LICENSE',
  'NOTICE',
];

function copySwaggerUi(): void {
  const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const to = fileURLToPath(new URL('./dist/swagger-ui/', import.meta.url));
  mkdirSync(to, { recursive: true });
  for (const file of SWAGGER_UI_FILES) copyFileSync(join(from, file), join(to, file));
}

export default defineConfig({
  entry: { main: 'src/entry/main.ts', 'demo-data': 'src/demo/shared.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  // Chunks, so that what only the server loads (Express, metrics, the logger, PGlite) is read only when it starts:
  // an operator command through a running server's socket loads the commands and the contract alone.
  splitting: true,
  noExternal: ['postgres'],
  sourcemap: true,
  dts: { entry: { 'demo-data': 'src/demo/shared.ts' } },
  onSuccess: async () => {
    copySwaggerUi();
    // An empty embedded cluster, which a new data directory starts from instead of running initdb (initdb-image.ts).
    await writeInitdbImage(fileURLToPath(new URL(`./dist/${INITDB_IMAGE_NAME}`, import.meta.url)));
  },
});
