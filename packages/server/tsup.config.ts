import { defineConfig } from 'tsup';

// The binary: one ESM entry with a shebang; dependencies stay in node_modules (PGlite loads its WebAssembly from
// there). Beside it, `testing` (with types): what other packages' tests and the benchmark start the real binary and a
// throwaway PostgreSQL cluster with; and `demo-data` (with types): what the benchmark's seeding shares with the demo.
export default defineConfig({
  entry: { main: 'src/entry/main.ts', testing: 'src/testing/index.ts', 'demo-data': 'src/demo/shared.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  splitting: false,
  sourcemap: true,
  dts: { entry: { testing: 'src/testing/index.ts', 'demo-data': 'src/demo/shared.ts' } },
});
