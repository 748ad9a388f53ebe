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
    const statements = captured(`measured/${s.name}`).statements.filter((st) => !/^\s*(begin|commit)/i.test(st.sql));
    const connection = await admin.reserve();
    try {
      for (const [i, st] of statements.entries()) {
        await connection.unsafe(`PREPARE bench_${i} AS ${st.sql}`);
        const args = st.params.map((p) => (p === null ? 'NULL' : `'${p.replaceAll("'", "''")}'`)).join(', ');
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
