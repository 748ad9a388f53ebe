import autocannon from 'autocannon';
import { cpuMeter } from './cpu.mjs';
import { scenario } from './scenarios.mjs';
import { percentile } from './util.mjs';

/**
 * The load generator, a process of its own (forked by run.mjs): autocannon at a fixed number of connections, a
 * warm-up whose figures are dropped, then the measured run. Latencies are kept per response (autocannon's own
 * histogram has millisecond resolution), and every response that is not 2xx counts as an error.
 */

/**
 * @typedef {object} LoadJob
 * @property {string} origin         http://host:port
 * @property {string} scenario       a scenario name or 'mixed'
 * @property {import('./scenarios.mjs').Target} target
 * @property {Array<import('./scenarios.mjs').Target & { keys: string[] }>} [callers]  many workspaces and keys, used
 *   round-robin by key instead of `target` (the many-keys scenario)
 * @property {number} connections
 * @property {number} warmupSeconds
 * @property {number} durationSeconds
 * @property {import('./cpu.mjs').CpuRoots} [cpu]  the server's and the cluster's pids: their CPU over the measured
 *   run is read from /proc, here, where the run starts and ends
 */

/**
 * @typedef {object} LoadResult
 * @property {number} rps
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} errors        non-2xx responses, connection errors and timeouts
 * @property {number} requests
 * @property {Record<string, number>} statuses
 * @property {import('./cpu.mjs').CpuFigures} [cpu]   with `cpu` in the job
 */

/**
 * @param {LoadJob} job
 * @param {number} seconds
 * @param {boolean} record
 * @returns {Promise<LoadResult>}
 */
function run(job, seconds, record) {
  const chosen = scenario(job.scenario);
  const callers = (job.callers ?? [{ ...job.target, keys: [job.target.key] }]).flatMap((target) =>
    target.keys.map((key) => ({ target, authorization: `Bearer ${key}` })),
  );
  let turn = 0;
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<string, number>} */
  const statuses = {};
  let errors = 0;
  return new Promise((resolve, reject) => {
    const meter = record && job.cpu ? cpuMeter(job.cpu) : null;
    const instance = autocannon(
      {
        url: job.origin,
        connections: job.connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (request) => {
              const caller = /** @type {(typeof callers)[number]} */ (callers[turn++ % callers.length]);
              const next = chosen.next(caller.target);
              /** @type {Record<string, string>} */
              const headers = { authorization: caller.authorization };
              if (next.body !== undefined) headers['content-type'] = 'application/json';
              return {
                ...request,
                method: next.method,
                path: next.path,
                headers,
                ...(next.body === undefined ? {} : { body: next.body }),
              };
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const cpu = meter?.(result.requests.total);
        const sorted = Float64Array.from(latencies).sort();
        errors += result.errors + result.timeouts;
        resolve({
          rps: result.requests.total / result.duration,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          errors,
          requests: result.requests.total,
          statuses,
          ...(cpu ? { cpu } : {}),
        });
      },
    );
    if (record) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        latencies.push(responseTime);
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
        if (statusCode < 200 || statusCode > 299) errors += 1;
      });
    }
  });
}

process.once('message', (message) => {
  const job = /** @type {LoadJob} */ (message);
  (async () => {
    if (job.warmupSeconds > 0) await run(job, job.warmupSeconds, false);
    const result = await run(job, job.durationSeconds, true);
    process.send?.(result);
  })()
    .catch((error) => {
      process.stderr.write(`load generator failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(() => process.disconnect?.());
});
