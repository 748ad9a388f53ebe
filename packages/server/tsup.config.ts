import { defineConfig } from 'tsup';

// One ESM entry with a shebang; dependencies stay in node_modules (PGlite loads its WebAssembly from there).
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  dts: false,
});
