import { defineConfig } from 'tsup';

/**
 * One minified ESM file with a shebang, holding everything it runs (the SDK, the contract's zod-free constants and
 * text rules, and commander): `node dist/coinventory.js` reads a single file and loads no package at start.
 *
 * commander is CommonJS and `require`s Node built-ins; an ESM bundle has no `require`, so the banner defines one.
 */
export default defineConfig({
  entry: { coinventory: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  minify: true,
  clean: true,
  sourcemap: false,
  dts: false,
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __coinventoryCreateRequire } from 'node:module';\nconst require = __coinventoryCreateRequire(import.meta.url);",
  },
});
