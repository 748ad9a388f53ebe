import { execFileSync } from 'node:child_process';

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
