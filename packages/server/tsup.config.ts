import { defineConfig } from 'tsup';

// The binary: one ESM entry with a shebang; dependencies stay in node_modules (PGlite loads its WebAssembly from
// there). Beside it, `testing` (with types): what other packages' tests and the benchmark start the real binary and a
// throwaway PostgreSQL cluster with.
export default defineConfig({
  entry: { main: 'src/entry/main.ts', testing: 'src/testing/index.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  splitting: false,
  sourcemap: true,
  dts: { entry: { testing: 'src/testing/index.ts' } },
});
