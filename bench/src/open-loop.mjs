import http from 'node:http';
import { cpuMeter } from './cpu.mjs';
import { scenario } from './scenarios.mjs';
import { percentile } from './util.mjs';

/**
 * The open-loop load generator, a process of its own (forked like load.mjs): requests leave on a fixed schedule,
 * `rate` per second evenly spaced, whether or not earlier ones have been answered, as independent clients send them.
 * A closed loop (autocannon at N connections) waits for each answer before the next request, so its latency is
 * bound by Little's law and says little about a server that is not saturated; autocannon's own rate option sends
 * each connection's quota in a burst at the start of every second. Here each request's latency is measured from the
 * moment it was due, so a request that waited for a free socket or for the generator itself counts that wait
 * (no coordinated omission).
 *
 * Requests are spread over `targets` (each a workspace with its keys) round-robin by key: with K keys and rate R,
 * every key sends R / K requests per second, as K integrations each within its rate limit would.
 */

/**
 * @typedef {object} OpenLoopJob
 * @property {string} origin            http://host:port
 * @property {string} scenario          a scenario name, 'mixed' or 'many-keys'
 * @property {Array<import('./scenarios.mjs').Target & { keys?: string[] }>} targets  `keys` default [target.key]
 * @property {number} rate              requests per second offered
 * @property {number} warmupSeconds
 * @property {number} durationSeconds
 * @property {number} [maxSockets]      connections the generator may open (default 256)
 * @property {import('./cpu.mjs').CpuRoots} [cpu]  the server's and the cluster's pids, whose CPU over the measured
 *   run is read from /proc
 */

/**
 * @typedef {object} OpenLoopResult
 * @property {number} offeredRps      the schedule's rate
 * @property {number} achievedRps     answers per second over the measured span
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} maxMs
 * @property {number} errors          non-2xx answers, connection errors and timeouts
 * @property {number} requests
 * @property {number} behindMs        how late the generator itself ran at worst (its timer against the schedule)
 * @property {number} sockets         connections it opened
 * @property {Record<string, number>} statuses
 * @property {import('./cpu.mjs').CpuFigures} [cpu]   with `cpu` in the job
 */

/**
 * @param {OpenLoopJob} job
 * @param {number} seconds
 * @param {boolean} record
 * @returns {Promise<OpenLoopResult>}
 */
function run(job, seconds, record) {
  const url = new URL(job.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.maxSockets ?? 256 });
  /** @type {Array<{ target: import('./scenarios.mjs').Target, authorization: string }>} */
  const callers = job.targets.flatMap((target) =>
    (target.keys ?? [target.key]).map((key) => ({ target, authorization: `Bearer ${key}` })),
  );
  const chosen = scenario(job.scenario);
  const total = Math.max(1, Math.round(job.rate * seconds));
  const intervalMs = 1000 / job.rate;
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<string, number>} */
  const statuses = {};
  let errors = 0;
  let sent = 0;
  let settled = 0;
  let behindMs = 0;
  let lastAnswer = 0;
  const sockets = new WeakSet();
  let socketCount = 0;
  const started = performance.now();
  const meter = record && job.cpu ? cpuMeter(job.cpu) : null;

  return new Promise((resolve) => {
    const finish = () => {
      const cpu = meter?.(settled);
      agent.destroy();
      const sorted = Float64Array.from(latencies).sort();
      const span = (lastAnswer - started) / 1000;
      resolve({
        offeredRps: job.rate,
        achievedRps: span > 0 ? settled / Math.max(span, seconds) : 0,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.length ? (sorted[sorted.length - 1] ?? 0) : 0,
        errors,
        requests: settled,
        behindMs: Math.round(behindMs),
        sockets: socketCount,
        statuses,
        ...(cpu ? { cpu } : {}),
      });
    };
    /** @param {number} dueAt @param {number | string} status */
    const done = (dueAt, status) => {
      settled += 1;
      lastAnswer = performance.now();
      if (record) {
        latencies.push(lastAnswer - dueAt);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (typeof status !== 'number' || status < 200 || status > 299) errors += 1;
      }
      if (settled === total) finish();
    };
    /** @param {number} dueAt */
    const send = (dueAt) => {
      const caller = /** @type {(typeof callers)[number]} */ (callers[sent % callers.length]);
      sent += 1;
      const request = chosen.next(caller.target);
      /** @type {Record<string, string>} */
      const headers = { authorization: caller.authorization };
      if (request.body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(request.body));
      }
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.path,
          headers,
          timeout: 10_000,
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => done(dueAt, res.statusCode ?? 0));
          res.on('error', () => done(dueAt, 'error'));
        },
      );
      req.on('socket', (socket) => {
        if (sockets.has(socket)) return;
        sockets.add(socket);
        socketCount += 1;
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => done(dueAt, 'error'));
      req.end(request.body);
    };
    // A 1 ms tick sends every request that has fallen due, each stamped with the time it was due.
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - started) / intervalMs) + 1);
      if (due > sent) behindMs = Math.max(behindMs, now - (started + sent * intervalMs));
      while (sent < due) send(started + sent * intervalMs);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

process.once('message', (message) => {
  const job = /** @type {OpenLoopJob} */ (message);
  (async () => {
    if (job.warmupSeconds > 0) await run(job, job.warmupSeconds, false);
    const result = await run(job, job.durationSeconds, true);
    process.send?.(result);
  })()
    .catch((error) => {
      process.stderr.write(`open-loop generator failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    })
    .finally(() => process.disconnect?.());
});
