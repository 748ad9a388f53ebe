// Measures what a user downloads and ships: the packed tarball, and the bundle of a minimal use
// (`new Coinventory({ apiKey }).me()`), minified and gzipped. Run after `build`: `pnpm run size` (`--json` for tests).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
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
