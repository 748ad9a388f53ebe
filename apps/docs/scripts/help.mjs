import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

/** The binaries the references are generated from (built first by turbo's ^build). */
export const CLI_BIN = join(packageDir('@coinventory/cli'), 'dist/coinventory.js');
export const SERVER_BIN = join(packageDir('@coinventory/server'), 'dist/main.js');

/**
 * A reader of a binary's help: `help(args)` runs `<bin> <args> --help` as a user on an 80-column terminal without
 * colour would see it. Every command answers `--help`; one that refuses it fails the docs' build.
 */
export function helpReader(bin) {
  const options = {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', COLUMNS: '80', HOME: process.env.HOME ?? '' },
  };
  // A help that names a file of its own package (an import's sample) names it where `npm install -g` puts it, not
  // where this build's package happens to be.
  const home = realpathSync(dirname(dirname(bin)));
  const { name } = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8'));
  return (args) =>
    execFileSync(process.execPath, [bin, ...args, '--help'], options).replaceAll(home, `$(npm root -g)/${name}`);
}
