import { defineConfig } from 'tsup';

// The binary: one ESM entry with a shebang. Dependencies stay in node_modules (PGlite loads its WebAssembly from
// there), except postgres.js: the build carries the patched copy (patches/README.md), which an install from the
// registry would not get. Beside it, `testing` (with types): what other packages' tests and the benchmark start the
// real binary and a throwaway PostgreSQL cluster with; and `demo-data` (with types): what the benchmark's seeding
// shares with the demo.
export default defineConfig({
  entry: { main: 'src/entry/main.ts', testing: 'src/testing/index.ts', 'demo-data': 'src/demo/shared.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  splitting: false,
  noExternal: ['postgres'],
  sourcemap: true,
  dts: { entry: { testing: 'src/testing/index.ts', 'demo-data': 'src/demo/shared.ts' } },
});
