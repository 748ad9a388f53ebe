// Measures what a user downloads and ships: the packed tarball, and the bundle of a minimal use
// (`new Coinventory({ apiKey }).me()`), minified and gzipped. Run after `build`: `pnpm run size` prints the figures,
// `--json` for tests, `--write` rewrites the README's size table, `--check` fails when it differs (a test runs it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

function packed() {
  const dir = mkdtempSync(join(tmpdir(), 'coinventory-sdk-size-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const out = execFileSync(npm, ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' });
    const [info] = JSON.parse(out);
    return { tarballBytes: info.size, unpackedBytes: info.unpackedSize, files: info.files.map((f) => f.path).sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function bundle(contents) {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    alias: { '@coinventory/sdk': join(root, 'dist/index.js') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, code: Buffer.from(code) };
}

export async function measure() {
  const minimal = await bundle(
    "import { Coinventory } from '@coinventory/sdk';\nnew Coinventory({ apiKey: 'cvk_live_x' }).me().then(console.log);\n",
  );
  const everything = await bundle("export * from '@coinventory/sdk';\n");
  return {
    packed: packed(),
    minimal: { minifiedBytes: minimal.minifiedBytes, gzipBytes: minimal.gzipBytes },
    everything: { minifiedBytes: everything.minifiedBytes, gzipBytes: everything.gzipBytes },
    minimalContainsZod: minimal.code.includes('zod'),
    // verifyWebhook's WebCrypto call names its algorithm; a client-only bundle has no reason to.
    minimalContainsWebhookVerification: minimal.code.includes('HMAC'),
  };
}

// The README's table, between these markers, is written by `--write` and checked by `--check`.
const START = '<!-- size-table:start -->';
const END = '<!-- size-table:end -->';
export const REWRITE_COMMAND =
  'npx -y pnpm@10.34.8 --filter @coinventory/sdk run build && npx -y pnpm@10.34.8 --filter @coinventory/sdk run size --write';

/** Kilobytes to 0.1 KB: the figures stay the same across machines where bytes may not (gzip, npm). */
const kilobytes = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The README's size table for `sizes`, markers included. */
export function sizeTable(sizes, version) {
  const rows = [
    ['What', 'Size'],
    [
      'Packed tarball (`npm pack`: ESM, CJS, `.d.ts`, `.d.cts`, README, CHANGELOG)',
      `${kilobytes(sizes.packed.tarballBytes)}; ${kilobytes(sizes.packed.unpackedBytes)} unpacked`,
    ],
    [
      'Minimal use, `new Coinventory({ apiKey }).me()`, esbuild-bundled and minified',
      kilobytes(sizes.minimal.minifiedBytes),
    ],
    ['The same, gzipped', kilobytes(sizes.minimal.gzipBytes)],
    [
      'Whole package bundled, minified / gzipped',
      `${kilobytes(sizes.everything.minifiedBytes)} / ${kilobytes(sizes.everything.gzipBytes)}`,
    ],
  ];
  const widths = [0, 1].map((i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    START,
    `Measured by \`pnpm run size\` (\`scripts/size.mjs\`) on version ${version}; \`pnpm run size --write\` rewrites this table`,
    'after a build, and a test fails when it is out of date:',
    '',
    line(rows[0]),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.slice(1).map(line),
    END,
  ].join('\n');
}

/** `readme` with its table replaced by `table`; throws when the markers are missing. */
function withTable(readme, table) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  return `${readme.slice(0, start)}${table}${readme.slice(end + END.length)}`;
}

/**
 * Writes the table into the README until the figures stop changing: the README is in the tarball, so writing new
 * figures changes the tarball's size, usually not by enough to change them again.
 */
async function writeTable(readmePath, version) {
  for (let round = 0; round < 5; round += 1) {
    const readme = readFileSync(readmePath, 'utf8');
    const updated = withTable(readme, sizeTable(await measure(), version));
    if (updated === readme) return round;
    writeFileSync(readmePath, updated);
  }
  throw new Error('The size table did not settle after 5 rounds; run the command again.');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const readmeArg = process.argv.indexOf('--readme');
  const readmePath = readmeArg > 0 ? process.argv[readmeArg + 1] : join(root, 'README.md');
  if (process.argv.includes('--write')) {
    const rounds = await writeTable(readmePath, version);
    console.log(rounds === 0 ? `${readmePath}: the size table is up to date.` : `${readmePath}: size table rewritten.`);
  } else if (process.argv.includes('--check')) {
    const expected = sizeTable(await measure(), version);
    const readme = readFileSync(readmePath, 'utf8');
    if (withTable(readme, expected) !== readme) {
      console.error(
        `The size table in ${readmePath} is out of date. It should read:\n\n${expected}\n\nRewrite it with: ${REWRITE_COMMAND}`,
      );
      process.exit(1);
    }
    console.log(`${readmePath}: the size table is up to date.`);
  } else {
    const sizes = await measure();
    if (process.argv.includes('--json')) console.log(JSON.stringify(sizes));
    else {
      const kb = (n) => `${(n / 1024).toFixed(1)} KB (${n} B)`;
      console.log(
        `packed tarball:             ${kb(sizes.packed.tarballBytes)}, unpacked ${kb(sizes.packed.unpackedBytes)}`,
      );
      console.log(`  files:                    ${sizes.packed.files.join(', ')}`);
      console.log(`minimal use, minified:      ${kb(sizes.minimal.minifiedBytes)}`);
      console.log(`minimal use, min + gzip:    ${kb(sizes.minimal.gzipBytes)}`);
      console.log(
        `whole package, min + gzip:  ${kb(sizes.everything.gzipBytes)} (${kb(sizes.everything.minifiedBytes)} minified)`,
      );
    }
  }
}
