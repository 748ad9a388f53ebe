import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'tsup';

/** Packages of others the bundle holds, whose licences ask that their notice travel with every copy. */
const BUNDLED = ['commander'];

/** dist/THIRD-PARTY-LICENSES.txt: each bundled package's name, version and licence text. */
function writeThirdPartyLicenses(): void {
  const require = createRequire(import.meta.url);
  const sections = BUNDLED.map((name) => {
    // From the entry up to the package's root: not every package exports its package.json.
    let dir = dirname(require.resolve(name));
    while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
    const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    return `${name} ${version} (${license})\n\n${readFileSync(join(dir, 'LICENSE'), 'utf8').trim()}\n`;
  });
  writeFileSync(
    new URL('./dist/THIRD-PARTY-LICENSES.txt', import.meta.url),
    `dist/coinventory.js includes the following packages.\n\n${sections.join('\n---\n\n')}`,
  );
}

/**
 * samples/items.csv (package.json `files`): the repository's sample of items, which the guides import with
 * `coinventory items import`, copied so that it ships with the CLI (`items import --help` says where it is). One
 * file kept in one place: the server's tests import the same file.
 */
function copySamples(): void {
  mkdirSync(new URL('./samples/', import.meta.url), { recursive: true });
  copyFileSync(
    new URL('../server/samples/imports/items.csv', import.meta.url),
    new URL('./samples/items.csv', import.meta.url),
  );
}

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
  onSuccess: async () => {
    writeThirdPartyLicenses();
    copySamples();
  },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __coinventoryCreateRequire } from 'node:module';\nconst require = __coinventoryCreateRequire(import.meta.url);",
  },
});
