import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './processes.mjs';

const UNITS = fileURLToPath(new URL('../../deploy/systemd', import.meta.url));
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
/** Where the units expect the binary: npm's global prefix with a system Node.js is /usr/local. */
const WRITTEN_BIN = '/usr/local/bin/coinventory-server';
/** What SIGTERM may take: SHUTDOWN_TIMEOUT_MS, then 2 s for a commit already on the wire (guide: "Graceful shutdown"). */
const COMMIT_GRACE_MS = 2_000;

/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** The example settings file as variables: `NAME=value` lines, comments and blank lines left out. */
export function exampleSettings() {
  /** @type {Record<string, string>} */
  const settings = {};
  for (const line of readFileSync(join(UNITS, 'coinventory.env.example'), 'utf8').split('\n')) {
    const setting = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (setting) settings[String(setting[1])] = String(setting[2]);
  }
  return settings;
}

/**
 * `systemd-analyze verify` on the units of deploy/systemd, with their ExecStart pointing where `npm install -g` put
 * the binary under `prefix` (the units name it under /usr/local, npm's prefix with a system Node.js); any warning it
 * prints fails. Also: each unit waits longer on stop than the example settings' SHUTDOWN_TIMEOUT_MS may take.
 * @param {string} prefix the npm prefix the server was installed under
 * @param {string} dir a scratch directory
 * @returns {Promise<string[]>} the units verified
 */
export async function verifyUnits(prefix, dir) {
  if (!existsSync(SYSTEMD_ANALYZE)) {
    check(!process.env.CI, `${SYSTEMD_ANALYZE} is missing: the systemd units cannot be verified`);
    console.warn(`release test: ${SYSTEMD_ANALYZE} is missing here: the systemd units are not verified`);
    return [];
  }
  const installed = join(prefix, 'bin', 'coinventory-server');
  check(existsSync(installed), `npm install -g put no coinventory-server in ${join(prefix, 'bin')}`);
  const shutdown = Number(exampleSettings().SHUTDOWN_TIMEOUT_MS ?? 10_000);
  mkdirSync(dir, { recursive: true });
  const units = ['coinventory.service', 'coinventory-sync-worker.service'];
  for (const unit of units) {
    const text = readFileSync(join(UNITS, unit), 'utf8');
    const execStart = /^ExecStart=(\S+)/m.exec(text)?.[1];
    check(execStart === WRITTEN_BIN, `${unit}: ExecStart runs ${execStart}, not ${WRITTEN_BIN}`);
    const stopSeconds = Number(/^TimeoutStopSec=(\d+)$/m.exec(text)?.[1]);
    check(
      stopSeconds * 1000 > shutdown + COMMIT_GRACE_MS,
      `${unit}: TimeoutStopSec=${stopSeconds} is not above SHUTDOWN_TIMEOUT_MS (${shutdown} ms) + ${COMMIT_GRACE_MS} ms`,
    );
    writeFileSync(join(dir, unit), text.replaceAll(WRITTEN_BIN, installed));
  }
  const verified = await run(SYSTEMD_ANALYZE, ['verify', '--man=no', '--generators=no', ...units], {
    cwd: dir,
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', SYSTEMD_LOG_COLOR: '0' },
    allowFailure: true,
  });
  const said = `${verified.stdout}${verified.stderr}`.trim();
  check(verified.code === 0 && said === '', `systemd-analyze verify ${units.join(' ')}:\n${said}`);
  return units;
}
