import { execFileSync } from 'node:child_process';

/**
 * A reader of a binary's help: `help(args)` runs `<bin> <args> --help` as a user on an 80-column terminal without
 * colour would see it. A command without options of its own refuses `--help`; its parent's help describes it.
 */
export function helpReader(bin) {
  const options = {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', COLUMNS: '80', HOME: process.env.HOME ?? '' },
  };
  return (args) => {
    try {
      return execFileSync(process.execPath, [bin, ...args, '--help'], options);
    } catch (error) {
      if (args.length === 0) throw error;
      return execFileSync(process.execPath, [bin, '--help'], options);
    }
  };
}
