import { defineConfig } from 'tsup';

// The binary: one ESM entry with a shebang; dependencies stay in node_modules (PGlite loads its WebAssembly from
// there). Beside it, `testing` (with types): the helper other packages' tests start the real binary with.
export default defineConfig({
  entry: { main: 'src/main.ts', testing: 'src/testing/server-process.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  splitting: false,
  sourcemap: true,
  dts: { entry: { testing: 'src/testing/server-process.ts' } },
});
