import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

/** The package's version, which the client sends in its User-Agent (src/version.ts): one source, package.json. */
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/**
 * ESM + CJS + declarations, with the contract bundled in: the published package has no runtime dependency.
 *
 * - Runtime values come only from the contract's zod-free entry points (`/constants`, `/routes`), which are inlined;
 *   zod never enters the bundle (test/package.test.ts checks).
 * - Declarations are bundled too. The contract's own types are inferred from zod, so `@coinventory/contract`, and
 *   `#contract-routes` (what the SDK reads of the contract's router), are mapped to the self-contained copy
 *   `scripts/flatten-contract-types.mjs` writes (run first by `build`), and the zod-free `/constants` and `/routes`
 *   declarations are inlined as they are.
 */
const contractDist = 'node_modules/@coinventory/contract/dist';
const flattened = 'node_modules/.cache/coinventory-sdk/contract.d.ts';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  platform: 'neutral',
  target: 'es2022',
  tsconfig: 'tsconfig.build.json',
  noExternal: ['@coinventory/contract'],
  clean: true,
  define: { __COINVENTORY_SDK_VERSION__: JSON.stringify(version) },
  // esbuild turns `class NotFoundError` into `var NotFoundError = class _NotFoundError`; without keepNames the
  // renamed class shows in `constructor.name` and stack traces (`at _APIError.from`).
  keepNames: true,
  // Rollup's tree-shaking drops the contract constants the SDK does not use (`LIMITS`, `ERROR_CODES`), which esbuild
  // keeps; the bundle a user ships shrinks by about 0.6 KB gzipped. Rollup then notes that the CJS build has named
  // and default exports together: intended (`require('@coinventory/sdk').Coinventory` and `.default`).
  treeshake: true,
  sourcemap: false,
  dts: {
    resolve: [/^@coinventory\/contract/, /^#contract-routes$/],
    compilerOptions: {
      paths: {
        '@coinventory/contract': [flattened],
        '#contract-routes': [flattened],
        '@coinventory/contract/constants': [`${contractDist}/constants.d.ts`],
        '@coinventory/contract/routes': [`${contractDist}/routes-manifest.d.ts`],
      },
    },
  },
});
