// The deploying guide's PostgreSQL section, run as a new operator would type it: its own blocks, read from the page.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startCluster, THROWAWAY_SETTINGS } from '@coinventory/test-server';
import { markedBlocks } from './guide-blocks.mjs';
import { freePort, run, startLongRunning } from './processes.mjs';
import { exampleSettings, verifyUnits } from './systemd-units.mjs';

const GUIDE = fileURLToPath(new URL('../../apps/docs/site/guide/deploying.md', import.meta.url));
/** The blocks marked `<!-- new-operator: NAME -->` in the guide, in this order. */
const STEPS = ['install', 'database', 'migrate', 'start', 'ready', 'onboard'];
/** What the guide writes that differs here: the server's origin and PostgreSQL's address. */
const WRITTEN_ORIGIN = 'http://localhost:3000';
const WRITTEN_DATABASE = '@localhost:5432/';

/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Runs a block in bash (as the docs' samples run: `-euo pipefail`), in a terminal whose exported variables carry over
 * from block to block as they would in one shell: the block's environment is what the one before left exported.
 * @param {string} code
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, state: string }} shell
 */
async function inShell(code, { cwd, env, state }) {
  const result = await run('bash', ['-euo', 'pipefail', '-c', `${code}\nenv -0 > '${state}'`], { cwd, env });
  /** @type {NodeJS.ProcessEnv} */
  const exported = {};
  for (const pair of readFileSync(state, 'utf8').split('\0').filter(Boolean)) {
    const equals = pair.indexOf('=');
    exported[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return { stdout: result.stdout, env: exported };
}

/** Seconds each part took, for the release test's log. */
class Stopwatch {
  /** @type {string[]} */
  laps = [];
  /**
   * @template T
   * @param {string} name
   * @param {() => Promise<T>} body
   */
  async lap(name, body) {
    const started = Date.now();
    const result = await body();
    this.laps.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  }
}

/**
 * The operator's terminal: npm installs globally under `prefix` (npm's own setting, as an environment variable);
 * psql reaches the cluster as its superuser through its usual variables; the server takes PORT.
 * @param {{ work: string, env: NodeJS.ProcessEnv, path: string }} user
 * @param {import('@coinventory/test-server').PostgresCluster} cluster
 * @param {number} port
 */
async function operatorShell({ work, env, path }, cluster, port) {
  const cwd = join(work, 'deploying');
  const prefix = join(work, 'operator-global');
  mkdirSync(cwd);
  // Moving npm's prefix also moves where npm reads its global settings from (`{prefix}/etc/npmrc`): this machine's
  // stay in force (a CA bundle, a registry mirror), as they would for the operator.
  const globalconfig = (await run('npm', ['config', 'get', 'globalconfig'], { cwd, env })).stdout.trim();
  /** @type {NodeJS.ProcessEnv} */
  const shellEnv = {
    ...env,
    PATH: `${join(prefix, 'bin')}:${cluster.bin}:${path}`,
    npm_config_prefix: prefix,
    npm_config_globalconfig: globalconfig,
    // The npx step has just fetched the same packages' metadata into this user's cache: npm uses it rather than asking
    // the registry again about each of the hundred packages (half a minute here), and asks for what it lacks.
    npm_config_prefer_offline: 'true',
    PGHOST: cluster.host,
    PGPORT: String(cluster.port),
    PGUSER: new URL(cluster.url).username,
    PORT: String(port),
  };
  return { cwd, prefix, state: join(work, 'operator-shell.env'), env: shellEnv };
}

/**
 * Installs the server from the registry the user's npm is set up with, creates the database on a throwaway
 * PostgreSQL cluster, migrates, starts, checks /readyz, onboards an organization with a key, calls GET /v1/me with it
 * and stops the server with SIGTERM, all with the guide's commands. Also verifies the systemd units against the
 * installed binary, and the example settings file against the server's validation.
 * @param {{ work: string, env: NodeJS.ProcessEnv, path: string }} user the new user's scratch space, environment and PATH
 * @returns {Promise<string>} what was checked and how long each part took, for the log
 */
export async function deployFromGuide(user) {
  const blocks = markedBlocks(GUIDE, 'new-operator');
  check(
    JSON.stringify([...blocks.keys()]) === JSON.stringify(STEPS),
    `the deploying guide marks ${[...blocks.keys()].join(', ')} as new-operator blocks, not ${STEPS.join(', ')}`,
  );
  const bin = findPostgresBin();
  if (bin === null) {
    check(!process.env.CI, 'no PostgreSQL server binaries (/usr/lib/postgresql/*/bin or PG_BIN)');
    return 'skipped: no PostgreSQL server binaries on this machine';
  }
  const watch = new Stopwatch();
  const cluster = await watch.lap('cluster', () =>
    startCluster(bin, { settings: THROWAWAY_SETTINGS, prefix: 'coinventory-release-pg-' }),
  );
  try {
    const port = await freePort();
    const shell = await operatorShell(user, cluster, port);
    /** The block as written, but for this server's and this cluster's addresses, which it must name. */
    const block = (/** @type {string} */ name, /** @type {string[]} */ written = []) => {
      const code = String(blocks.get(name));
      for (const text of written) check(code.includes(text), `the "${name}" block no longer names ${text}:\n${code}`);
      return code
        .replaceAll(WRITTEN_ORIGIN, `http://127.0.0.1:${port}`)
        .replaceAll(WRITTEN_DATABASE, `@${cluster.host}:${cluster.port}/`);
    };
    const installed = await watch.lap('install', () => inShell(block('install'), shell));
    check(
      installed.stdout.trim().endsWith(join(shell.prefix, 'bin', 'coinventory-server')),
      `command -v coinventory-server: ${installed.stdout}`,
    );
    const units = await watch.lap('systemd', () => verifyUnits(shell.prefix, join(user.work, 'units')));
    shell.env = (await watch.lap('database', () => inShell(block('database'), shell))).env;
    shell.env = (await watch.lap('migrate', () => inShell(block('migrate', [WRITTEN_DATABASE]), shell))).env;
    check(String(shell.env.DATABASE_URL).includes(`:${cluster.port}/`), `DATABASE_URL: ${shell.env.DATABASE_URL}`);
    await watch.lap('settings', () => checkExampleSettings(shell, String(blocks.get('migrate'))));
    await watch.lap('serve', () => serve(block, shell));
    return `on ${cluster.version}; systemd units verified: ${units.join(', ') || 'none'}; ${watch.laps.join(', ')}`;
  } finally {
    cluster.stop();
    rmSync(join(user.work, 'operator-shell.env'), { force: true });
  }
}

/**
 * The example settings file names the guide's database and passes the server's validation (`migrate` reads every
 * variable), on that database.
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} shell the terminal, DATABASE_URL exported
 * @param {string} migrateBlock the guide's block that exports DATABASE_URL, as written
 */
async function checkExampleSettings(shell, migrateBlock) {
  const settings = exampleSettings();
  const written = /DATABASE_URL="([^"]+)"/.exec(migrateBlock)?.[1];
  check(
    settings.DATABASE_URL === written,
    `coinventory.env.example has DATABASE_URL=${settings.DATABASE_URL}, the guide ${written}`,
  );
  const migrated = await run('coinventory-server', ['migrate', '--json'], {
    cwd: shell.cwd,
    env: { ...shell.env, ...settings, DATABASE_URL: shell.env.DATABASE_URL },
  });
  check(JSON.parse(migrated.stdout).applied.length === 0, `migrate with coinventory.env.example:\n${migrated.stdout}`);
}

/**
 * The guide's server in the foreground, and from a second terminal: /readyz, an organization, a key and GET /v1/me
 * with it; then SIGTERM, which it must end by with exit 0.
 * @param {(name: string, written?: string[]) => string} block
 * @param {{ cwd: string, state: string, env: NodeJS.ProcessEnv }} shell
 */
async function serve(block, shell) {
  // One command: bash runs it in its own place, so the server's exit status is what is seen.
  const server = await startLongRunning('bash', ['-euo', 'pipefail', '-c', block('start')], {
    cwd: shell.cwd,
    env: shell.env,
    ready: /"msg":"listening"/,
  });
  try {
    check(/"database":"postgres"/.test(server.output()), `the server did not start on PostgreSQL:\n${server.output()}`);
    const ready = await inShell(block('ready', [WRITTEN_ORIGIN]), shell);
    check(ready.stdout.trim() === '{"status":"ok","database":"reachable"}', `GET /readyz: ${ready.stdout}`);
    const onboarded = await inShell(block('onboard', [WRITTEN_ORIGIN]), shell);
    const me = JSON.parse(onboarded.stdout.trim().split('\n').at(-1) ?? '');
    check(
      me.organization?.slug === 'acme-coins' && me.apiKey?.scopes?.includes('write'),
      `GET /v1/me with the new key:\n${onboarded.stdout}`,
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  const { code, signal } = await server.stop();
  check(
    code === 0 && server.output().includes('"msg":"stopped"'),
    `coinventory-server start ended ${code ?? signal} on SIGTERM:\n${server.output().slice(-2000)}`,
  );
}
