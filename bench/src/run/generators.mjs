import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The load generators, each run in a process of its own so it does not share an event loop with the run. */

/**
 * Forks a generator, hands it its job and returns the figures it sends back.
 * @template T
 * @param {string} file   the generator's module, beside this directory
 * @param {object} job
 * @returns {Promise<T>}
 */
async function generate(file, job) {
  const child = fork(fileURLToPath(new URL(`../${file}`, import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  /** @type {T | undefined} */
  let result;
  child.once('message', (message) => {
    result = /** @type {T} */ (message);
  });
  child.send(job);
  const [code] = await once(child, 'exit');
  if (code !== 0 || !result) throw new Error(`${file} exited with ${code} and no figures`);
  return result;
}

/**
 * Closed loop: autocannon at a fixed number of connections (load.mjs).
 * @param {import('../load.mjs').LoadJob} job
 * @returns {Promise<import('../load.mjs').LoadResult>}
 */
export const load = (job) => generate('load.mjs', job);

/**
 * Open loop: requests on a fixed schedule, latency from when each was due (open-loop.mjs).
 * @param {import('../open-loop.mjs').OpenLoopJob} job
 * @returns {Promise<import('../open-loop.mjs').OpenLoopResult>}
 */
export const openLoop = (job) => generate('open-loop.mjs', job);
