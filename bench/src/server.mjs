import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { sleep } from './util.mjs';

/**
 * The real server, started as an operator would: `node packages/server/dist/main.js start` from the build output,
 * NODE_ENV=production, on the benchmark's PostgreSQL, with the rate limit raised by configuration. Its JSON log
 * lines go to a file (a pipe read by this process would compete for the same two cores).
 */

/**
 * @typedef {object} ServerOptions
 * @property {string} main            packages/server/dist/main.js
 * @property {string | null} databaseUrl   null: the embedded database, in `dataDir`
 * @property {string} [dataDir]       COINVENTORY_DATA_DIR, for the embedded database
 * @property {number} port
 * @property {number} workers         WEB_CONCURRENCY
 * @property {string} logFile
 * @property {Record<string, string>} [env]   more configuration
 * @property {Array<keyof typeof SERVER_SETTINGS>} [unset]   settings left to the server's own default (e.g. the
 *   rate limit, for a run under the API's real limit)
 * @property {string} [cpuProfileDir] run under `node --cpu-prof`, profiles written there at exit
 */

/**
 * @typedef {object} RunningServer
 * @property {string} origin
 * @property {number} pid
 * @property {() => number} rssBytes   the resident memory of the server's processes (primary and workers)
 * @property {() => Promise<number | null>} stop
 */

/** The configuration every benchmark server gets. */
export const SERVER_SETTINGS = Object.freeze({
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  // The API's limit is 120 per minute per key; a load test sends far more through one key. The limiter still
  // runs in full on every request: only the threshold moves.
  RATE_LIMIT_MAX_REQUESTS: '1000000',
  RATE_LIMIT_WINDOW_SECONDS: '60',
  // Two database connections per core. Every request of the benchmark's key takes that key's rate-limit row lock,
  // and on two cores more sessions only add lock queueing and context switches: in trials, 10 connections (the
  // default) served GET /me about 25% slower than 4, and 32 slower still.
  DATABASE_POOL_SIZE: '4',
});

/**
 * Resident set size of a process, in bytes (0 once it is gone).
 * @param {number} pid
 */
function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * A process's children (cluster workers).
 * @param {number} pid
 * @returns {number[]}
 */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * @param {ServerOptions} options
 * @returns {Promise<RunningServer>}
 */
export async function startServer(options) {
  const log = openSync(options.logFile, 'a');
  const args = options.cpuProfileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`, options.main, 'start']
    : [options.main, 'start'];
  /** @type {Record<string, string>} */
  const settings = { ...SERVER_SETTINGS };
  for (const name of options.unset ?? []) delete settings[name];
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH ?? '',
      ...settings,
      ...(options.databaseUrl === null ? {} : { DATABASE_URL: options.databaseUrl }),
      ...(options.dataDir ? { COINVENTORY_DATA_DIR: options.dataDir } : {}),
      HOST: '127.0.0.1',
      PORT: String(options.port),
      WEB_CONCURRENCY: String(options.workers),
      ...options.env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server did not start');
  // However the run ends (an error, Ctrl-C, SIGTERM: run.mjs exits from its signal handler), the server ends with it;
  // as a cluster's primary it stops its workers.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `the server exited with ${child.exitCode}:\n${readFileSync(options.logFile, 'utf8').slice(-3000)}`,
      );
    }
    if (existsSync(options.logFile) && readFileSync(options.logFile, 'utf8').includes('"msg":"listening"')) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the server did not start listening within 60 s');
    }
    await sleep(100);
  }
  return {
    origin: `http://127.0.0.1:${options.port}`,
    pid,
    rssBytes: () => [pid, ...childrenOf(pid)].reduce((sum, p) => sum + rssOf(p), 0),
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = /** @type {[number | null]} */ (await once(child, 'exit'));
      return code;
    },
  };
}
