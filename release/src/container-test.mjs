// The container test: deploy/container's image and compose files, built and run with Podman through the commands of
// apps/docs/site/guide/container.md (each block marked "run by the container test", in the page's order), with the
// server published to a throwaway registry as the release test does. Not part of `pnpm test`: it takes minutes and
// needs podman, runc, podman-compose and mmdebstrap. Run it with `npx -y pnpm@10.34.8 test:container`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, run, stopAll } from './processes.mjs';
import { packAndPublish } from './publish.mjs';
import { startRegistry } from './registry.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TOOLS = fileURLToPath(new URL('../container', import.meta.url));
const GUIDE = join(REPO, 'apps/docs/site/guide/container.md');
const KEY = /\bcvk_live_[0-9A-Za-z]{38}\b/;
const MARKER = '<!-- sample: skip (run by the container test) -->';
/** The base images, made with mmdebstrap from Debian trixie (Node.js 20), since no image registry is reachable. */
const BASES = {
  node: ['--variant=minbase', '--include=nodejs,npm,ca-certificates', 'trixie'],
  postgres: ['--variant=minbase', '--include=postgresql-17,pgbouncer,ca-certificates', 'trixie'],
};

/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) throw new Error(message);
}
const started = Date.now();
/** @param {string} text */
const say = (text) => console.log(`container test (${Math.round((Date.now() - started) / 1000)} s): ${text}`);

const missing = ['podman', 'runc', 'podman-compose', 'mmdebstrap'].filter(
  (tool) => !['/usr/bin', '/usr/sbin', '/usr/local/bin'].some((dir) => existsSync(join(dir, tool))),
);
if (missing.length > 0) {
  console.error(
    `container test: needs ${missing.join(', ')}: install with "sudo apt-get install podman runc podman-compose mmdebstrap" (Debian/Ubuntu)`,
  );
  process.exit(1);
}

// Podman's own store for the test, so nothing of the machine's containers, images or volumes is touched, and the
// base images it makes survive to the next run.
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'coinventory-container-test');
mkdirSync(cache, { recursive: true });
writeFileSync(
  join(cache, 'containers.conf'),
  '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n',
);
writeFileSync(
  join(cache, 'storage.conf'),
  `[storage]\ndriver = "overlay"\ngraphroot = "${join(cache, 'storage')}"\nrunroot = "${join(cache, 'run')}"\n`,
);
const work = mkdtempSync(join(tmpdir(), 'coinventory-container-'));
const home = join(work, 'home');
mkdirSync(home);
const podmanEnv = {
  PATH: `${TOOLS}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`,
  HOME: home,
  LANG: 'C.UTF-8',
  CONTAINERS_CONF: join(cache, 'containers.conf'),
  CONTAINERS_STORAGE_CONF: join(cache, 'storage.conf'),
  // A machine behind a TLS-intercepting proxy trusts its CA this way; the image build gets it as a secret.
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
};
/** @param {string[]} args @param {{ allowFailure?: boolean, timeoutMs?: number }} [options] */
const podman = (args, options = {}) => run('podman', args, { cwd: work, env: podmanEnv, ...options });

// The guide keeps the database password in deploy/container/.env: the run's own is removed at its end.
const dotEnv = join(REPO, 'deploy/container/.env');
const dotEnvWasThere = existsSync(dotEnv);

let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  stopAll();
  if (!dotEnvWasThere) rmSync(dotEnv, { force: true });
  // Every container and volume of the run; the images stay, as a cache.
  await podman(['rm', '--all', '--force', '--time', '0'], { allowFailure: true });
  await podman(['volume', 'prune', '--force'], { allowFailure: true });
  await podman(['pod', 'rm', '--all', '--force'], { allowFailure: true });
  await podman(['network', 'prune', '--force'], { allowFailure: true });
  rmSync(work, { recursive: true, force: true, maxRetries: 5 });
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    cleanUp().finally(() => process.exit(130));
  });
}

/**
 * A base image made once with mmdebstrap and imported; named by a hash of what makes it, so a change remakes it.
 * @param {string} name @param {string[]} args
 */
async function baseImage(name, args) {
  const image = `localhost/coinventory-test-base-${name}:${createHash('sha256').update(args.join(' ')).digest('hex').slice(0, 12)}`;
  if ((await podman(['image', 'exists', image], { allowFailure: true })).code === 0) return image;
  say(`making the ${name} base image with mmdebstrap (once; minutes)…`);
  const tarball = join(work, `${name}.tar`);
  await run('mmdebstrap', [...args, tarball], { cwd: work, env: podmanEnv, timeoutMs: 20 * 60_000 });
  await podman(['import', tarball, image], { timeoutMs: 10 * 60_000 });
  rmSync(tarball);
  return image;
}

/** The guide's blocks the test runs, in order, each with the heading it stands under. */
function guideBlocks() {
  const text = readFileSync(GUIDE, 'utf8');
  /** @type {Array<{ heading: string, commands: string }>} */
  const blocks = [];
  let heading = '';
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('## ')) heading = line.slice(3);
    if (line !== MARKER) continue;
    check(lines[i + 1] === '```bash', `${GUIDE}:${i + 2}: the marker must stand right before a bash fence`);
    const end = lines.indexOf('```', i + 2);
    blocks.push({ heading, commands: lines.slice(i + 2, end).join('\n') });
  }
  return blocks;
}

/** Reads the next block of the guide, which must stand under `heading`, and runs it as a reader would, in bash. */
function guideRunner(/** @type {NodeJS.ProcessEnv} */ env) {
  const blocks = guideBlocks();
  const next = async (
    /** @type {string} */ heading,
    /** @type {(text: string) => string} */ adapt = (text) => text,
  ) => {
    const block = blocks.shift();
    check(block?.heading === heading, `the guide's next test block is under "${block?.heading}", not "${heading}"`);
    const commands = adapt(String(block?.commands));
    say(`the guide, "${heading}":\n${commands.replace(/^/gm, '    ')}`);
    const result = await run('bash', ['-euo', 'pipefail', '-c', commands], { cwd: REPO, env, timeoutMs: 15 * 60_000 });
    return result;
  };
  const done = () => check(blocks.length === 0, `${blocks.length} block(s) of the guide were not run`);
  return Object.assign(next, { done });
}

/** @typedef {{ Names: string[], State: string, ExitCode: number }} Container */
/** Every container of the run, as `podman ps --all` lists them. */
const containers = async () =>
  /** @type {Container[]} */ (JSON.parse((await podman(['ps', '--all', '--format', 'json'])).stdout));
const nameOf = (/** @type {Container | undefined} */ container) => String(container?.Names[0]);

/** GET on the container's published port; the status and parsed body. */
async function get(/** @type {number} */ port, /** @type {string} */ path, /** @type {string} */ key = '') {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const text = await response.text();
  return { status: response.status, text };
}

async function untilReady(/** @type {number} */ port) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await get(port, '/readyz').then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return;
    check(Date.now() < deadline, `/readyz on port ${port} answered ${status} for 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Starts a POST whose body is only half sent, so the request is in flight when the container is stopped; returns a
 * function that sends the rest and resolves with the answer's status line.
 */
async function requestInFlight(/** @type {number} */ port, /** @type {string} */ key, /** @type {object} */ body) {
  const json = JSON.stringify(body);
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /v1/items HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json.slice(0, 10)}`,
  );
  return async () => {
    socket.write(json.slice(10));
    await closed;
    return String(answer.split('\r\n')[0]);
  };
}

try {
  const registry = await startRegistry(join(work, 'registry'), { PATH: podmanEnv.PATH, HOME: home });
  const upstream = (await run('npm', ['config', 'get', 'registry'], { cwd: REPO, env: process.env })).stdout.trim();
  writeFileSync(join(home, '.npmrc'), `registry=${upstream}\n@coinventory:registry=${registry.url}\n`);
  const version = await packAndPublish({
    repo: REPO,
    names: ['contract', 'server'],
    work,
    registry,
    userEnv: podmanEnv,
  });
  say(`published @coinventory/contract and server ${version} to ${registry.url}`);

  const nodeBase = await baseImage('node', BASES.node);
  const postgresBase = await baseImage('postgres', BASES.postgres);
  const postgresImage = `localhost/coinventory-test-postgres:${createHash('sha256')
    .update(postgresBase)
    .update(readFileSync(join(TOOLS, 'postgres.Containerfile')))
    .update(readFileSync(join(TOOLS, 'postgres-entrypoint.sh')))
    .digest('hex')
    .slice(0, 12)}`;
  if ((await podman(['image', 'exists', postgresImage], { allowFailure: true })).code !== 0) {
    await podman([
      'build',
      '--format',
      'docker',
      '--build-arg',
      `BASE_IMAGE=${postgresBase}`,
      '-t',
      postgresImage,
      '-f',
      join(TOOLS, 'postgres.Containerfile'),
      TOOLS,
    ]);
  }

  const apiPort = await freePort();
  const composePort = await freePort();
  const guide = guideRunner({
    ...podmanEnv,
    COINVENTORY_TEST_BUILD_ARGS: [
      `--build-arg BASE_IMAGE=${nodeBase}`,
      `--build-arg COINVENTORY_VERSION=${version}`,
      `--build-arg COINVENTORY_REGISTRY=${registry.url}`,
    ].join(' '),
    POSTGRES_IMAGE: postgresImage,
    PGBOUNCER_IMAGE: postgresImage,
    COINVENTORY_PORT: String(composePort),
  });
  // The port the guide publishes may be taken on this machine: the run publishes a free one instead.
  const onFreePort = (/** @type {string} */ text) => text.replace('-p 3000:3000', `-p ${apiPort}:3000`);

  // --- The image. ----------------------------------------------------------------------------------------------------
  await guide('Build the image');
  const [image] = JSON.parse((await podman(['image', 'inspect', 'coinventory-server'])).stdout);
  check(image.Config.User === 'coinventory:coinventory', `the image runs as ${image.Config.User}`);
  // Podman shows the health check beside the config, Docker inside it.
  const healthcheck = image.Healthcheck ?? image.Config.Healthcheck;
  check(healthcheck?.Test?.join(' ').includes('/readyz'), 'the image has no health check on /readyz');
  check(JSON.stringify(image.Config.Volumes ?? {}).includes('/var/lib/coinventory'), 'no volume for the data');
  say(`image built: ${(image.Size / 1e6).toFixed(0)} MB, user ${image.Config.User}`);

  // --- One container, the embedded database. ---------------------------------------------------------------------
  await guide('One container, the embedded database', onFreePort);
  await untilReady(apiPort);
  const healthy = await podman(['healthcheck', 'run', 'coinventory'], { allowFailure: true });
  check(healthy.code === 0, `the health check failed: ${healthy.stdout}${healthy.stderr}`);
  const printed = await guide('One container, the embedded database');
  const demoKey = printed.stdout.trim();
  check(KEY.test(demoKey), `the guide's command found no key in the log: ${printed.stdout}`);
  check((await get(apiPort, '/v1/me', demoKey)).status === 200, 'GET /v1/me with the demo key was refused');
  const uid = (await podman(['exec', 'coinventory', 'id', '-u'])).stdout.trim();
  check(uid === '10001', `the server runs as uid ${uid}`);
  const orgs = await guide('One container, the embedded database');
  check(orgs.stdout.includes('liberty-coin'), `org list shows no demo organization:\n${orgs.stdout}`);

  // SIGTERM while a request is in flight: it is answered, committed, and the server exits 0.
  const sku = `CT-${Date.now()}`;
  const finish = await requestInFlight(apiPort, demoKey, { sku, title: 'Drained on shutdown', quantity: 1 });
  const stopping = podman(['stop', '--time', '30', 'coinventory']);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const statusLine = await finish();
  await stopping;
  check(statusLine.startsWith('HTTP/1.1 200'), `the request in flight at SIGTERM was answered "${statusLine}"`);
  const [stopped] = JSON.parse((await podman(['inspect', 'coinventory'])).stdout);
  check(stopped.State.ExitCode === 0, `the server exited ${stopped.State.ExitCode} on SIGTERM`);
  const logs = await podman(['logs', 'coinventory']);
  const stdoutLines = logs.stdout.split('\n').filter(Boolean);
  const notJson = stdoutLines.filter((line) => {
    try {
      return typeof JSON.parse(line) !== 'object';
    } catch {
      return true;
    }
  });
  check(stdoutLines.length > 0 && notJson.length === 0, `stdout lines that are not JSON:\n${notJson.join('\n')}`);
  say(
    `SIGTERM with a request in flight: answered ${statusLine.slice(9)}, exit 0; ${stdoutLines.length} JSON log lines`,
  );

  // The volume keeps the data: the same container started again has the key and the item.
  await podman(['start', 'coinventory']);
  await untilReady(apiPort);
  const items = await get(apiPort, `/v1/items?sku=${sku}`, demoKey);
  check(items.status === 200 && items.text.includes(sku), `after a restart the item is gone: ${items.text}`);
  await podman(['rm', '--force', '--time', '0', 'coinventory']);
  await podman(['volume', 'rm', 'coinventory-data']);

  // --- PostgreSQL, through the compose file. -------------------------------------------------------------------------
  const compose = await guide('With PostgreSQL: the compose file');
  const key = compose.stdout.match(KEY)?.[0];
  check(key !== undefined, `key create printed no key:\n${compose.stdout}`);
  check((await get(composePort, '/v1/me', String(key))).status === 200, 'GET /v1/me on PostgreSQL was refused');
  const migrate = (await containers()).find((c) => nameOf(c).includes('migrate'));
  check(migrate?.State === 'exited' && migrate.ExitCode === 0, `migrate: ${JSON.stringify(migrate)}`);
  say('compose: migrated once, server healthy, operator commands and GET /v1/me work');

  await guide('Upgrades');
  await untilReady(composePort);
  check((await get(composePort, '/v1/me', String(key))).status === 200, 'GET /v1/me after the upgrade was refused');

  await guide('Through PgBouncer');
  await untilReady(composePort);
  check((await get(composePort, '/v1/me', String(key))).status === 200, 'GET /v1/me through PgBouncer was refused');
  // The server really goes through PgBouncer: without it, it is not ready.
  const pgbouncer = (await containers()).find((c) => nameOf(c).includes('pgbouncer'));
  check(pgbouncer?.State === 'running', 'no PgBouncer container is running');
  await podman(['stop', '--time', '5', nameOf(pgbouncer)]);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  check((await get(composePort, '/readyz')).status !== 200, 'the server is ready without PgBouncer: it bypasses it');
  await podman(['start', nameOf(pgbouncer)]);
  await untilReady(composePort);
  guide.done();
  say('PgBouncer: the server answers through it, and is not ready without it');
  say(`passed in ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  await cleanUp();
}
