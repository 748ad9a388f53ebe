import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scenario } from '../scenarios.mjs';
import { log } from '../util.mjs';
import { BASELINE_ROUNDS, BASELINE_SCENARIOS, MAIN, ROOT } from './options.mjs';

/**
 * `--baseline`: an earlier build of the server measured beside this one, alternating, on the same data (step 11 of
 * bench/README.md). The option names a build's dist/main.js, or a commit, which is then built here.
 */

/**
 * @typedef {object} BaselineBuild
 * @property {string} main                       its dist/main.js
 * @property {string | null} commit              when built from a commit here
 * @property {'logged' | 'unlogged'} limiterTables  as that build's own migrations leave the limiter's tables
 */

/** Written once a build has finished, so an interrupted one is built again rather than reused. */
const BUILT = '.bench-baseline-built';

/** A command's output (its stderr shows on the run's; a failure's stdout is on the error). @param {string} command @param {string[]} argv @param {string} cwd */
const run = (command, argv, cwd) =>
  execFileSync(command, argv, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 2 ** 26,
  }).trim();

/**
 * The commit's files (git archive: no worktree, nothing in this checkout changes), its dependencies from the
 * lockfile of that commit and its server build, in the temporary directory; kept and reused by later runs.
 * @param {string} commit   a full commit id
 */
function buildCommit(commit) {
  const dir = join(tmpdir(), `coinventory-bench-baseline-${commit.slice(0, 12)}`);
  const main = join(dir, 'packages/server/dist/main.js');
  if (existsSync(join(dir, BUILT))) {
    log(`baseline: the build of ${commit.slice(0, 12)} in ${dir}, made by an earlier run`);
    return main;
  }
  log(`baseline: building ${commit.slice(0, 12)} in ${dir} (about a minute)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 2 ** 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const manager = String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).packageManager ?? 'pnpm');
  for (const argv of [
    ['install', '--frozen-lockfile', '--prefer-offline'],
    ['--filter', '@coinventory/server...', 'build'],
  ]) {
    try {
      run('npx', ['-y', manager, ...argv], dir);
    } catch (error) {
      const output = /** @type {{ stdout?: string }} */ (error).stdout ?? '';
      throw new Error(`baseline: pnpm ${argv.join(' ')} failed in ${dir}\n${output.slice(-4000)}`);
    }
  }
  if (!existsSync(main)) throw new Error(`baseline: the build of ${commit} made no ${main}`);
  writeFileSync(join(dir, BUILT), `${commit}\n`);
  return main;
}

/**
 * The baseline the option names: a path to a dist/main.js as it is, anything else a commit of this repository.
 * @param {string} option
 * @returns {BaselineBuild}
 */
export function prepareBaseline(option) {
  let commit = null;
  let main = option;
  if (!existsSync(option)) {
    try {
      commit = run('git', ['rev-parse', '--verify', '--quiet', `${option}^{commit}`], ROOT);
    } catch {
      throw new Error(`--baseline=${option} is neither a file nor a commit of this repository`);
    }
    main = buildCommit(commit);
  }
  // Migration 0010 ("rate_limit_unlogged") made the limiter's tables unlogged; a build without it had them logged.
  const limiterTables = readFileSync(main, 'utf8').includes('"rate_limit_unlogged"') ? 'unlogged' : 'logged';
  log(`baseline: ${main}${commit ? ` (${commit.slice(0, 12)})` : ''}, the limiter's tables ${limiterTables}`);
  return { main, commit, limiterTables };
}

/**
 * A build of the server a step measures: this checkout's, or the baseline's.
 * @typedef {object} Build
 * @property {'baseline' | 'this'} build
 * @property {string} main                  its dist/main.js
 * @property {'logged' | 'unlogged'} limiterTables
 */

/**
 * The builds a step measures: the baseline first when there is one, then this build.
 * @param {BaselineBuild | null} baseline
 * @returns {Build[]}
 */
export function buildsOf(baseline) {
  /** @type {Build} */
  const current = { build: 'this', main: MAIN, limiterTables: 'unlogged' };
  return baseline
    ? [{ build: 'baseline', main: baseline.main, limiterTables: baseline.limiterTables }, current]
    : [current];
}

/**
 * Runs `measure` with the limiter's tables as the build's own migrations left them (logged before migration 0010),
 * and puts them back as this build has them afterwards.
 * @template T
 * @param {Pick<Build, 'limiterTables'>} build
 * @param {import('postgres').Sql} admin
 * @param {() => Promise<T>} measure
 * @returns {Promise<T>}
 */
export async function withLimiterTables(build, admin, measure) {
  if (build.limiterTables === 'unlogged') return measure();
  await admin`ALTER TABLE rate_limit_state SET LOGGED`;
  await admin`ALTER TABLE rate_limit_slots SET LOGGED`;
  try {
    return await measure();
  } finally {
    await admin`ALTER TABLE rate_limit_slots SET UNLOGGED`;
    await admin`ALTER TABLE rate_limit_state SET UNLOGGED`;
  }
}

/**
 * @typedef {object} BaselineRow
 * @property {string} scenario
 * @property {string} label
 * @property {'baseline' | 'this'} build
 * @property {number} round
 * @property {import('./measure.mjs').ServerFigures} server
 */

/**
 * The earlier build against this one, back to back on the same data: BASELINE_SCENARIOS on the earlier build (with
 * the limiter's tables as its migrations left them), then on this build, BASELINE_ROUNDS times each, alternating, so
 * drift of the machine shows as a spread rather than as a difference.
 * @param {BaselineBuild} baseline
 * @param {import('postgres').Sql} admin
 * @param {{ startMeasuredServer: (workers: number, profileDir?: string, main?: string) => Promise<import('../server.mjs').RunningServer>,
 *   measureServer: (running: import('../server.mjs').RunningServer, targetName: string, name: string) => Promise<import('./measure.mjs').ServerFigures>,
 *   drainOutbox: () => Promise<void> }} measurements   measure.mjs's
 */
export async function measureBaseline(
  baseline,
  admin,
  { startMeasuredServer: start, measureServer: measure, drainOutbox: drain },
) {
  /** @type {BaselineRow[]} */
  const rows = [];
  for (let round = 1; round <= BASELINE_ROUNDS; round++) {
    for (const build of buildsOf(baseline)) {
      await withLimiterTables(build, admin, async () => {
        const server = await start(1, undefined, build.main);
        for (const name of BASELINE_SCENARIOS) {
          const { label, kind } = scenario(name);
          log(`${label}: ${build.build === 'this' ? 'this build' : 'the baseline build'} (round ${round})`);
          rows.push({
            scenario: name,
            label,
            build: build.build,
            round,
            server: await measure(server, 'measured', name),
          });
          // What a write queued for the sync worker is delivered before the next measurement, as in the main
          // scenarios.
          if (kind !== 'read') await drain();
        }
        await server.stop();
      });
    }
  }
  return {
    main: baseline.main,
    commit: baseline.commit,
    limiterTables: baseline.limiterTables,
    rounds: BASELINE_ROUNDS,
    rows,
  };
}
