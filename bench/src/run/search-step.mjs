import { SEARCH_TEXT, scenario } from '../scenarios.mjs';
import { log } from '../util.mjs';
import { buildsOf, withLimiterTables } from './baseline-step.mjs';
import { withCaptureServer } from './capture-all.mjs';
import { SEARCH } from './options.mjs';
import { explainCaptured } from './profile-step.mjs';

/**
 * Search at scale (issue 40): `GET /items?q=1881-S` in the large workspace (1,000,000 items in a full run, or in a
 * --quick one with --search-scale), on every build: the closed loop (its most), then an open loop at SEARCH.rate
 * requests/s, the same rate for every build, so the latencies compare; CPU per request beside each. Then each build's
 * statements for that request under EXPLAIN (ANALYZE, BUFFERS), the second of two executions (both builds' read
 * warm): this build's from the capture run, the baseline's captured from a server of its own.
 */

/**
 * @typedef {object} SearchPlan
 * @property {'baseline' | 'this'} build
 * @property {Array<{ sql: string, ms: number }>} statements   every statement of the request, with its time
 * @property {Array<{ sql: string, ms: number, plan: string }>} search   the ones that search (hold the search text)
 */

/**
 * @typedef {object} SearchFigures
 * @property {string} label
 * @property {number} items          in the searched workspace
 * @property {number} rate           the open loop's requests/s
 * @property {Array<{ build: 'baseline' | 'this', server: import('./measure.mjs').ServerFigures,
 *   openLoop: import('../open-loop.mjs').OpenLoopResult }>} rows
 * @property {SearchPlan[]} plans
 */

/**
 * The request's statements under EXPLAIN, and the plans of those that search.
 * @param {'baseline' | 'this'} build
 * @param {import('postgres').Sql} admin
 * @param {import('./capture-all.mjs').Captured} captured
 * @returns {Promise<SearchPlan>}
 */
async function planOf(build, admin, captured) {
  const explained = await explainCaptured(admin, captured, { warm: true });
  const holdsText = (/** @type {(typeof explained)[number]} */ e) =>
    e.sql.includes(SEARCH_TEXT) || e.params.some((p) => p?.includes(SEARCH_TEXT));
  const search = explained.filter(holdsText);
  return {
    build,
    statements: explained.map(({ sql, ms }) => ({ sql, ms })),
    // A build whose statement carries the text some other way: its slowest statement is the search.
    search: (search.length > 0 ? search : [...explained].sort((a, b) => b.ms - a.ms).slice(0, 1)).map(
      ({ sql, ms, plan }) => ({ sql, ms, plan }),
    ),
  };
}

/**
 * @param {{ admin: import('postgres').Sql, baseline: import('./baseline-step.mjs').BaselineBuild | null,
 *   cluster: import('./capture-all.mjs').Cluster, work: string, captures: import('./capture-all.mjs').Captures,
 *   target: import('../scenarios.mjs').Target,
 *   measurement: Pick<Awaited<ReturnType<typeof import('./measure.mjs').measureScenarios>>, 'startMeasuredServer' | 'measureServer' | 'measureRate'> }} run
 * @returns {Promise<SearchFigures>}
 */
export async function measureSearch({ admin, baseline, cluster, work, captures, target, measurement }) {
  const { startMeasuredServer: start, measureServer: measure, measureRate } = measurement;
  const s = scenario(SEARCH.scenario);
  const items = target.items.toLocaleString('en-US');
  /** @type {SearchFigures['rows']} */
  const rows = [];
  for (const build of buildsOf(baseline)) {
    const which = build.build === 'this' ? 'this build' : 'the baseline build';
    await withLimiterTables(build, admin, async () => {
      const server = await start(1, undefined, build.main);
      log(`${s.label} at ${items} items: closed loop, ${which}`);
      const closed = await measure(server, SEARCH.target, s.name);
      log(`${s.label} at ${items} items: open loop at ${SEARCH.rate} req/s, ${which}`);
      const open = await measureRate(server, SEARCH.target, s.name, SEARCH.rate);
      await server.stop();
      rows.push({ build: build.build, server: closed, openLoop: open });
    });
  }
  log(`${s.label} at ${items} items: EXPLAIN (ANALYZE, BUFFERS)`);
  const current = captures.captured(`${SEARCH.target}/${s.name}`);
  const plans = [];
  if (baseline) {
    const { request, variations } = s.capture(target);
    const captured = await withCaptureServer(
      { cluster, admin, work, main: baseline.main, name: 'baseline-capture' },
      (captureOne) => captureOne(request, target.key),
    );
    plans.push(await planOf('baseline', admin, { ...captured, variations }));
  }
  plans.push(await planOf('this', admin, current));
  return { label: s.label, items: target.items, rate: SEARCH.rate, rows, plans };
}
