// The release test: every public package published to a throwaway registry, then installed and used the way a user
// meets them, in empty directories with only Node and npm. See README.md ("The release test").
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployFromGuide } from './new-operator.mjs';
import { freePort, run, startLongRunning, stopAll } from './processes.mjs';
import { packAndPublish } from './publish.mjs';
import { startRegistry } from './registry.mjs';

// In CI the server's suite, the longest, runs beside this: it gets the CPU first, as the vitest suites let it
// (tooling/vitest). The processes this starts inherit the priority.
if (process.env.CI) setPriority(10);

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/app', import.meta.url));
/** In dependency order: the SDK bundles the contract, the server depends on it. */
const PUBLISHED = ['contract', 'sdk', 'cli', 'server'];
const KEY = /\bcvk_live_[0-9A-Za-z]{38}\b/;
const require = createRequire(import.meta.url);

/** @param {string} file */
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) throw new Error(message);
}

const started = Date.now();
/** @type {Array<{ name: string, seconds: number }>} */
const timings = [];
/**
 * @template T
 * @param {string} name
 * @param {() => Promise<T>} body
 * @returns {Promise<T>}
 */
async function step(name, body) {
  const t = Date.now();
  console.log(`release test: ${name}…`);
  const result = await body();
  timings.push({ name, seconds: (Date.now() - t) / 1000 });
  return result;
}

const work = mkdtempSync(join(tmpdir(), 'coinventory-release-'));
let cleaned = false;
function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  stopAll();
  // Retried: a process just killed may still be closing files in it.
  rmSync(work, { recursive: true, force: true, maxRetries: 5 });
}
process.on('exit', cleanUp);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

/** The registry this machine installs from (a mirror, in some CI), which the user's npm keeps for everything else. */
const upstream = (await run('npm', ['config', 'get', 'registry'], { cwd: REPO, env: process.env })).stdout.trim();

// The user: a new HOME (so a new npm cache), only Node and npm on the PATH, no variable of this monorepo's pnpm.
const home = join(work, 'home');
mkdirSync(home);
// npm sits beside node in every Node.js install (the official tarballs, nvm, Debian's nodejs and npm packages).
const nodeBin = dirname(process.execPath);
const userPath = [...new Set([nodeBin, '/usr/bin', '/bin'])].join(':');
const userEnv = { PATH: userPath, HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1' };

try {
  const registry = await step('a throwaway registry (verdaccio on loopback)', () =>
    startRegistry(join(work, 'registry'), { PATH: userPath, HOME: home }),
  );
  writeFileSync(
    join(home, '.npmrc'),
    [
      `registry=${upstream}`,
      `@coinventory:registry=${registry.url}`,
      // Quiet and quick, as CI machines set it: no funding banner, no audit round trip, no update check.
      'fund=false',
      'audit=false',
      'update-notifier=false',
      '',
    ].join('\n'),
  );

  const version = await step('pack and publish @coinventory/{contract,sdk,cli,server}', () =>
    packAndPublish({ repo: REPO, names: PUBLISHED, work, registry, userEnv }),
  );

  // --- The server, as an operator tries it: npx, nothing installed. ------------------------------------------------
  const port = await freePort();
  const server = await step('npx @coinventory/server start (embedded database, nothing installed)', async () => {
    const cwd = join(work, 'operator');
    mkdirSync(cwd);
    const started = await startLongRunning('npx', ['-y', '@coinventory/server', 'start'], {
      cwd,
      env: { ...userEnv, PORT: String(port), HOST: '127.0.0.1', COINVENTORY_DATA_DIR: join(cwd, 'data') },
      ready: KEY,
      timeoutMs: 300_000,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) break;
      check(Date.now() < deadline, `no answer on /healthz:\n${started.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // What npx installed: the server carries the patched postgres.js in its build (patches/README.md), so the
    // registry's unpatched release is not a dependency at all.
    const npxRoot = join(home, '.npm', '_npx');
    const installed = readdirSync(npxRoot)
      .map((dir) => join(npxRoot, dir, 'node_modules'))
      .find((dir) => existsSync(join(dir, '@coinventory/server/package.json')));
    check(installed !== undefined, `no @coinventory/server under ${npxRoot}`);
    // The build is split into chunks (main.js and what it loads): the patch is in one of them.
    const dist = join(String(installed), '@coinventory/server/dist');
    const build = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(dist, file), 'utf8'));
    check(
      build.some((code) => code.includes('nextWriteTimer = chunk = null')),
      'the installed server lacks the postgres.js patch',
    );
    check(!existsSync(join(String(installed), 'postgres')), 'npx installed postgres.js beside the server');
    // The reference's Swagger UI files come in the server's build: swagger-ui-dist would bring @scarf/scarf, whose
    // install script reports the install to a third party.
    check(!existsSync(join(String(installed), '@scarf')), 'npx installed @scarf/scarf (through swagger-ui-dist)');
    for (const asset of ['', '/assets/swagger-ui-bundle.js', '/assets/swagger-ui.css']) {
      const answer = await fetch(`http://127.0.0.1:${port}/docs${asset}`);
      check(answer.status === 200, `GET /docs${asset} answered ${answer.status}`);
    }
    return { ...started, key: String(started.match?.[0]) };
  });
  const apiEnv = { COINVENTORY_BASE_URL: `http://127.0.0.1:${port}/v1`, COINVENTORY_API_KEY: server.key };

  // --- The SDK, as a dealer's developer installs it. -------------------------------------------------------------
  const app = join(work, 'app');
  mkdirSync(app);
  await step('npm install @coinventory/sdk (with typescript and @types/node) in an empty project', async () => {
    await run('npm', ['init', '-y'], { cwd: app, env: userEnv });
    const typescript = readJson(require.resolve('typescript/package.json')).version;
    const typesNode = readJson(require.resolve('@types/node/package.json')).version;
    await run(
      'npm',
      ['install', `@coinventory/sdk@${version}`, `typescript@${typescript}`, `@types/node@${typesNode}`],
      {
        cwd: app,
        env: userEnv,
      },
    );
    const scope = readdirSync(join(app, 'node_modules/@coinventory'));
    check(JSON.stringify(scope) === '["sdk"]', `the SDK installed more of @coinventory: ${scope.join(', ')}`);
    check(!existsSync(join(app, 'node_modules/zod')), 'the SDK pulled in zod');
    for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(app, file));
  });

  /** @type {{ skus: string[] }} */
  const fromEsm = await step('the SDK from ESM, CJS and TypeScript (tsc --strict)', async () => {
    const esm = JSON.parse((await run('node', ['esm.mjs'], { cwd: app, env: { ...userEnv, ...apiEnv } })).stdout);
    const cjs = JSON.parse((await run('node', ['cjs.cjs'], { cwd: app, env: { ...userEnv, ...apiEnv } })).stdout);
    check(
      esm.version === version && cjs.version === version,
      `SDK VERSION ${esm.version}/${cjs.version}, not ${version}`,
    );
    check(esm.skus.length > 0, 'the demo workspace listed no items');
    check(JSON.stringify(esm.skus) === JSON.stringify(cjs.skus), 'ESM and CJS listed different items');
    check(esm.organization === cjs.organization, 'ESM and CJS saw different organizations');
    check(cjs.notFound === true, 'an unknown id did not throw NotFoundError from the CJS build');
    await run('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: app, env: userEnv });
    const refused = await run(
      'npx',
      ['tsc', '--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', 'invalid.mts'],
      {
        cwd: app,
        env: userEnv,
        allowFailure: true,
      },
    );
    const errors = refused.stdout.split('\n').filter((line) => line.startsWith('invalid.mts('));
    check(refused.code !== 0 && errors.length === 4, `tsc should refuse the 4 invalid calls:\n${refused.stdout}`);
    return esm;
  });

  // --- The CLI, as staff install it. -----------------------------------------------------------------------------
  await step('npm install -g @coinventory/cli, then coinventory --help and items list', async () => {
    const prefix = join(work, 'global');
    await run('npm', ['install', '-g', '--prefix', prefix, '@coinventory/cli'], { cwd: work, env: userEnv });
    const staff = { ...userEnv, PATH: `${join(prefix, 'bin')}:${userPath}` };
    const which = await run('sh', ['-c', 'command -v coinventory'], { cwd: work, env: staff });
    check(which.stdout.trim() === join(prefix, 'bin', 'coinventory'), `coinventory on the PATH: ${which.stdout}`);
    const shown = await run('coinventory', ['--version'], { cwd: work, env: staff });
    check(shown.stdout.trim() === version, `coinventory --version: ${shown.stdout}`);
    const help = await run('coinventory', ['--help'], { cwd: work, env: staff });
    check(
      /^Usage: coinventory/m.test(help.stdout) && /\bitems\b/.test(help.stdout),
      `coinventory --help:\n${help.stdout}`,
    );
    const list = await run('coinventory', ['items', 'list', '--sort', 'sku', '--json'], {
      cwd: work,
      env: { ...staff, ...apiEnv },
    });
    // `--json` prints the API's list body, { items, page, limit, hasMore }.
    const listed = JSON.parse(list.stdout).items.map((/** @type {{ sku: string }} */ item) => item.sku);
    check(
      JSON.stringify(listed) === JSON.stringify(fromEsm.skus.slice(0, listed.length)) && listed.length > 0,
      `coinventory items list showed ${listed.join(', ')}; the SDK ${fromEsm.skus.join(', ')}`,
    );
    const table = await run('coinventory', ['items', 'list', '--sort', 'sku'], {
      cwd: work,
      env: { ...staff, ...apiEnv },
    });
    check(table.stdout.includes(String(listed[0])), `the table lacks ${listed[0]}:\n${table.stdout}`);
    // The sample `items import --help` names, where it says npm puts it.
    const root = (await run('npm', ['root', '-g', '--prefix', prefix], { cwd: work, env: userEnv })).stdout.trim();
    const sample = join(root, '@coinventory/cli', 'samples', 'items.csv');
    check(existsSync(sample), `the CLI's sample is not at ${sample}, where items import --help says it is`);
  });

  // --- The server, as an operator deploys it: the deploying guide's own commands, on PostgreSQL. -----------------
  await step('the deploying guide as written: npm install -g, PostgreSQL, migrate, start, onboard, stop', async () => {
    console.log(`release test:   ${await deployFromGuide({ work, env: userEnv, path: userPath })}`);
  });

  await step('the server stops on SIGTERM', async () => {
    // npx passes the signal on and ends by it; the server itself must finish its requests, log "stopped" and exit.
    const { code, signal } = await server.stop();
    const log = server.output();
    check(
      (code === 0 || signal === 'SIGTERM') && log.includes('"msg":"stopped"'),
      `npx @coinventory/server start ended ${code ?? signal} on SIGTERM:\n${log.slice(-2000)}`,
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then(() => true)
        .catch(() => false);
      if (!up) break;
      check(Date.now() < deadline, 'the server still answers after SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  await registry.stop();

  const total = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nrelease test passed in ${total} s (version ${version}):`);
  for (const { name, seconds } of timings) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${name}`);
} catch (error) {
  console.error(`\nrelease test FAILED: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  cleanUp();
}
