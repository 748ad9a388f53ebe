import { execFileSync } from 'node:child_process';
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
  return (args) => execFileSync(process.execPath, [bin, ...args, '--help'], options);
}
