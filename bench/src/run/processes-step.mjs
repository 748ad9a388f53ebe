import { scenario } from '../scenarios.mjs';
import { log } from '../util.mjs';
import { buildsOf, withLimiterTables } from './baseline-step.mjs';
import { PROCESSES } from './options.mjs';

/**
 * What one server process costs per request, and where more processes or one busy key take it (issue 40):
 * - one key: one process, all PROCESSES.connections connections on the measured workspace's one key, GET /me against
 *   GET /items/{id}: a read that runs while the key's admission holds its row lock shows as a gap between the two;
 * - with --scaling: WEB_CONCURRENCY at each of PROCESSES.processes (1, 2, 4 … the machine's cores), the load spread
 *   over PROCESSES.keys keys of the measured workspace, on PROCESSES.scenarios; req/s, p99, and the server's and
 *   PostgreSQL's CPU per request, so the same command gives the table on a machine of any size.
 * Both on every build (this one, and the baseline's with --baseline), on the same data.
 */

/**
 * @typedef {object} ProcessRow
 * @property {'baseline' | 'this'} build
 * @property {number} processes
 * @property {string} scenario
 * @property {string} label
 * @property {import('./measure.mjs').ServerFigures} server
 */

/**
 * @typedef {object} ProcessFigures
 * @property {number} connections
 * @property {{ rows: ProcessRow[] }} oneKey
 * @property {{ keys: number, processes: number[], rows: ProcessRow[] } | null} scaling   null without --scaling
 */

/**
 * @param {{ admin: import('postgres').Sql, baseline: import('./baseline-step.mjs').BaselineBuild | null,
 *   callers: Array<import('../scenarios.mjs').Target & { keys: string[] }> | null,
 *   measurement: Pick<Awaited<ReturnType<typeof import('./measure.mjs').measureScenarios>>, 'startMeasuredServer' | 'measureServer'> }} run
 *   `callers`: the measured workspace with PROCESSES.keys keys, for --scaling
 * @returns {Promise<ProcessFigures>}
 */
export async function measureProcesses({ admin, baseline, callers, measurement }) {
  const { startMeasuredServer: start, measureServer: measure } = measurement;
  const { connections } = PROCESSES;
  /** @type {ProcessRow[]} */
  const oneKey = [];
  /** @type {ProcessRow[]} */
  const scaling = [];
  for (const build of buildsOf(baseline)) {
    const which = build.build === 'this' ? 'this build' : 'the baseline build';
    await withLimiterTables(build, admin, async () => {
      const server = await start(1, undefined, build.main);
      for (const name of PROCESSES.oneKey) {
        const { label } = scenario(name);
        log(`${label}: one key, ${connections} connections, ${which}`);
        const figures = await measure(server, 'measured', name, { connections });
        oneKey.push({ build: build.build, processes: 1, scenario: name, label, server: figures });
      }
      await server.stop();
      if (!PROCESSES.scaling || !callers) return;
      for (const count of PROCESSES.processes) {
        const running = await start(count, undefined, build.main);
        for (const name of PROCESSES.scenarios) {
          const { label } = scenario(name);
          log(`${label}: ${count} process${count === 1 ? '' : 'es'}, ${PROCESSES.keys} keys, ${which}`);
          const figures = await measure(running, 'measured', name, { connections, callers });
          scaling.push({ build: build.build, processes: count, scenario: name, label, server: figures });
        }
        await running.stop();
      }
    });
  }
  return {
    connections,
    oneKey: { rows: oneKey },
    scaling: PROCESSES.scaling ? { keys: PROCESSES.keys, processes: PROCESSES.processes, rows: scaling } : null,
  };
}
