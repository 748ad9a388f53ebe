import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeProfile } from '../profile.mjs';
import { scenario } from '../scenarios.mjs';
import { log } from '../util.mjs';
import { RESULTS } from './options.mjs';

/**
 * The profile of one scenario (the slowest by default): the server's top self-time functions under load
 * (node --cpu-prof), and what PostgreSQL does for each of its statements (EXPLAIN ANALYZE, run for real).
 */

/**
 * @typedef {object} Profile
 * @property {string} scenario
 * @property {string} label
 * @property {import('./measure.mjs').ServerFigures} server
 * @property {import('../profile.mjs').ProfileSummary} summary
 * @property {{ sql: string, ms: number, plan: string }[]} explain
 */

/**
 * A captured parameter as an argument of EXECUTE. The statements run for real, and a write's unique values (its new
 * SKU, the id of the change it records) were taken by the capture run: those get a fresh value per execution, from
 * the same expression the database floor's pgbench uses (the variations that need no pgbench variable). Every other
 * value is the captured one.
 * @param {string | null} value
 * @param {import('../scenarios.mjs').Variation[]} variations
 */
function explainArgument(value, variations) {
  if (value === null) return 'NULL';
  const fresh = variations.find((v) => v.value === value && v.set.length === 0);
  return fresh ? `(${fresh.expression})` : `'${value.replaceAll("'", "''")}'`;
}

/**
 * @param {string} profile  a scenario's name, or 'slowest'
 * @param {{ main: Array<{ name: string, server: { rps: number } }>, admin: import('postgres').Sql,
 *   captures: import('./capture-all.mjs').Captures,
 *   measurement: Pick<Awaited<ReturnType<typeof import('./measure.mjs').measureScenarios>>, 'startMeasuredServer' | 'measureServer'> }} run
 * @returns {Promise<Profile>}
 */
export async function profileScenario(profile, { main, admin, captures, measurement }) {
  const { startMeasuredServer, measureServer } = measurement;
  const { captured } = captures;
  const slowest = [...main].sort((a, b) => a.server.rps - b.server.rps)[0];
  const name = profile === 'slowest' ? slowest?.name : profile;
  const s = scenario(name ?? 'me');
  log(`profiling ${s.label} (node --cpu-prof)`);
  const dir = join(RESULTS, 'profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const profiled = await startMeasuredServer(1, dir);
  const figures = await measureServer(profiled, 'measured', s.name);
  await profiled.stop();
  const summary = summarizeProfile(dir);
  // And what PostgreSQL does for it: each statement's plan, run for real (EXPLAIN ANALYZE).
  const explain = [];
  if (s.name !== 'mixed') {
    const { statements: all, variations } = captured(`measured/${s.name}`);
    const statements = all.filter((st) => !/^\s*(begin|commit)/i.test(st.sql));
    const connection = await admin.reserve();
    try {
      for (const [i, st] of statements.entries()) {
        await connection.unsafe(`PREPARE bench_${i} AS ${st.sql}`);
        const args = st.params.map((p) => explainArgument(p, variations)).join(', ');
        const rows = await connection.unsafe(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_${i}${args ? `(${args})` : ''}`);
        const plan = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
        const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
        explain.push({ sql: st.sql.trim().replace(/\s+/g, ' ').slice(0, 160), ms, plan });
      }
    } finally {
      connection.release();
    }
  }
  return { scenario: s.name, label: s.label, server: figures, summary, explain };
}
