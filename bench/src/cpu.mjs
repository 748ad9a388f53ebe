import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CPU time of process trees, read from /proc: the server (its primary and every cluster worker) and PostgreSQL (the
 * postmaster and every backend and background process of the benchmark's cluster), before and after a measured
 * phase. What a request costs in CPU does not depend on how many cores a machine has, so these figures compare
 * across machines and across builds where requests per second on shared cores do not.
 *
 * A tree's time is the sum over its live processes of utime + stime + cutime + cstime (/proc/<pid>/stat): a process
 * that ends during the phase (a PostgreSQL backend, a replaced worker) moves its time into its parent's cutime and
 * cstime when it is reaped, so the sum still holds it.
 */

/** Clock ticks per second, the unit of /proc/<pid>/stat's times (100 on Linux almost everywhere). */
const TICKS_PER_SECOND = (() => {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
})();

/**
 * @typedef {object} ProcessTimes
 * @property {number} ppid
 * @property {number} ticks   utime + stime + cutime + cstime
 */

/**
 * Every process's parent and CPU ticks, from one pass over /proc.
 * @returns {Map<number, ProcessTimes>}
 */
function processTable() {
  /** @type {Map<number, ProcessTimes>} */
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
    } catch {
      continue; // ended between the listing and the read
    }
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself: fields count from
    // after its last ')'. There, 0 is the state (field 3), 1 the parent (4), 11 to 14 utime, stime, cutime, cstime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    table.set(Number(entry), { ppid: Number(fields[1]), ticks });
  }
  return table;
}

/**
 * CPU milliseconds spent so far by each named tree (a root process and all its descendants); 0 for a root that is
 * gone.
 * @template {string} K
 * @param {Record<K, number>} roots   a name per tree, its root's pid
 * @returns {Record<K, number>}
 */
export function cpuSnapshot(roots) {
  const table = processTable();
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const [pid, { ppid }] of table) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  /** @param {number} root */
  const treeTicks = (root) => {
    let ticks = 0;
    const stack = table.has(root) ? [root] : [];
    while (stack.length > 0) {
      const pid = /** @type {number} */ (stack.pop());
      ticks += table.get(pid)?.ticks ?? 0;
      stack.push(...(children.get(pid) ?? []));
    }
    return ticks;
  };
  const out = /** @type {Record<K, number>} */ ({});
  for (const name of /** @type {K[]} */ (Object.keys(roots)))
    out[name] = (treeTicks(roots[name]) * 1000) / TICKS_PER_SECOND;
  return out;
}

/**
 * The pids whose trees a measurement reads: the server's process and the cluster's postmaster.
 * @typedef {{ server: number, database: number }} CpuRoots
 */

/**
 * CPU of a measured phase, per component.
 * @typedef {object} CpuFigures
 * @property {number} wallMs                  the phase's length
 * @property {number} serverMs                CPU the server's processes spent in it
 * @property {number} databaseMs              CPU PostgreSQL's processes spent in it
 * @property {number} serverMsPerRequest      serverMs / the requests answered in it
 * @property {number} databaseMsPerRequest
 * @property {number} serverCores             serverMs / wallMs: cores the server kept busy
 * @property {number} databaseCores
 * @property {number} generatorCores          the load generator's own (the process reading the meter), which shares
 *   the cores
 */

/**
 * Starts reading a phase: call the returned function when the phase ends, with the requests answered in it.
 * @param {CpuRoots} roots
 * @returns {(requests: number) => CpuFigures}
 */
export function cpuMeter(roots) {
  const started = performance.now();
  const own = process.cpuUsage();
  const before = cpuSnapshot(roots);
  return (requests) => {
    const after = cpuSnapshot(roots);
    const wallMs = performance.now() - started;
    const generator = process.cpuUsage(own);
    const serverMs = after.server - before.server;
    const databaseMs = after.database - before.database;
    const per = (/** @type {number} */ ms) => (requests > 0 ? ms / requests : Number.NaN);
    return {
      wallMs: Math.round(wallMs),
      serverMs: Math.round(serverMs),
      databaseMs: Math.round(databaseMs),
      serverMsPerRequest: per(serverMs),
      databaseMsPerRequest: per(databaseMs),
      serverCores: serverMs / wallMs,
      databaseCores: databaseMs / wallMs,
      generatorCores: (generator.user + generator.system) / 1000 / wallMs,
    };
  };
}

/**
 * The pid of the postmaster of the cluster `sql` is connected to: the parent of its backend. The cluster runs on this
 * machine (the benchmark starts it), so its processes are in this /proc.
 * @param {import('postgres').Sql} sql
 */
export async function postmasterPid(sql) {
  const [row] = await sql`SELECT pg_backend_pid() AS pid`;
  const ppid = processTable().get(Number(row?.pid))?.ppid;
  if (!ppid || ppid <= 1) throw new Error(`the postmaster of backend ${row?.pid} is not in /proc`);
  return ppid;
}
