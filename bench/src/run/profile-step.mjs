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

/** Statements prepared for EXPLAIN so far, which names the next one apart. */
let explained = 0;

/**
 * Each of a captured request's statements (transaction control left out) under EXPLAIN (ANALYZE, BUFFERS), run for
 * real with the captured parameters, on one connection: its execution time and plan. `warm`: each runs twice and the
 * second is kept, so a plan is not charged for the connection's first look at the tables (reads only: a write would
 * be made twice).
 * @param {import('postgres').Sql} admin
 * @param {import('./capture-all.mjs').Captured} captured
 * @param {{ warm?: boolean }} [options]
 * @returns {Promise<Array<{ sql: string, params: Array<string | null>, ms: number, plan: string }>>}
 */
export async function explainCaptured(admin, { statements: all, variations }, { warm = false } = {}) {
  const statements = all.filter((st) => !/^\s*(begin|commit)/i.test(st.sql));
  const explain = [];
  const connection = await admin.reserve();
  /** @type {string[]} */
  const prepared = [];
  try {
    for (const st of statements) {
      // Named apart from every earlier call's on this connection, and deallocated one by one after: DEALLOCATE ALL
      // would also drop postgres.js's own prepared statements.
      const name = `bench_explain_${++explained}`;
      await connection.unsafe(`PREPARE ${name} AS ${st.sql}`);
      prepared.push(name);
      const args = st.params.map((p) => explainArgument(p, variations)).join(', ');
      const explainIt = `EXPLAIN (ANALYZE, BUFFERS) EXECUTE ${name}${args ? `(${args})` : ''}`;
      if (warm) await connection.unsafe(explainIt);
      const rows = await connection.unsafe(explainIt);
      const plan = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
      explain.push({ sql: st.sql.trim().replace(/\s+/g, ' ').slice(0, 160), params: st.params, ms, plan });
    }
  } finally {
    for (const name of prepared) await connection.unsafe(`DEALLOCATE ${name}`);
    connection.release();
  }
  return explain;
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
  const explain = s.name === 'mixed' ? [] : await explainCaptured(admin, captured(`measured/${s.name}`));
  return { scenario: s.name, label: s.label, server: figures, summary, explain };
}
