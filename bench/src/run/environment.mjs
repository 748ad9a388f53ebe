import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './options.mjs';

/** What the figures were measured on: the machine, and the versions of everything in the measurement. */

/** @param {string} command @param {string[]} argv */
const text = (command, argv) => {
  try {
    return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
};

/** @param {string} path */
const versionOf = (path) => {
  try {
    return String(JSON.parse(readFileSync(join(ROOT, path), 'utf8')).version);
  } catch {
    return 'unknown';
  }
};

export function machine() {
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    os: /PRETTY_NAME="([^"]*)"/.exec(osRelease)?.[1] ?? 'unknown',
  };
}

/**
 * @param {{ postgres: string, pgbench: string }} tools  the cluster's version and the pgbench binary
 */
export function versions({ postgres, pgbench }) {
  return {
    node: process.version,
    postgres,
    pgbench: text(pgbench, ['--version']),
    autocannon: versionOf('bench/node_modules/autocannon/package.json'),
    postgresJs: versionOf('bench/node_modules/postgres/package.json'),
    server: versionOf('packages/server/package.json'),
    contract: versionOf('packages/contract/package.json'),
    commit: text('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
  };
}
