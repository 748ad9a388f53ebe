// Every code sample of the guides runs against a live server on loopback (see README: "Code samples run").
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openApiDocument from '@coinventory/contract/openapi';
import {
  createKey,
  DEMO_ORGANIZATION,
  exitedWithOutput,
  findPostgresBin,
  type PostgresCluster,
  type RunningServer,
  runOperatorCommand,
  SERVER_BIN,
  startCluster,
  startServer,
  stopServer,
  TEST_SERVER_NODE_FLAGS,
  THROWAWAY_SETTINGS,
} from '@coinventory/test-server';
import { CI_SLOWDOWN } from '@coinventory/vitest-config';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentOperation, operationsByTag } from '../scripts/render.mjs';
import { CURSOR_ENV, pathEnvName, requestEnv, sampleRequest } from '../scripts/samples.mjs';
import { guideSections, operatingSection } from '../site/.vitepress/guides.js';
import { type CodeBlock, codeBlocks, isPlainRun, NOT_RUN, RUNNABLE } from './support/markdown.js';
import { apiClient, exerciseReceiver, listening, RECEIVER_PATH } from './support/receiver-sample.js';
import { type RecordingProxy, startRecordingProxy } from './support/recording-proxy.js';

const DOCS = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(DOCS, '../..');
const CLI_BIN = join(REPO, 'packages/cli/dist/coinventory.js');
/**
 * How long one sample may run before it is killed as hung: a minute alone, longer in CI, where every package's suite
 * shares two cores and a sample of thirty commands has taken over a minute. Each test's timeout leaves room for it.
 */
const SAMPLE_LIMIT_MS = 60_000 * CI_SLOWDOWN;
const SAMPLE_TEST_TIMEOUT_MS = SAMPLE_LIMIT_MS + 30_000 * CI_SLOWDOWN;
/** The address the samples are written with; the runner substitutes the live server's. */
const WRITTEN_ORIGIN = 'http://localhost:3000';

const pages = [
  { file: 'index.md', link: '/' },
  ...[...guideSections, operatingSection].flatMap((section) =>
    section.items.map((item) => ({ file: `${item.link.slice(1)}.md`, link: item.link })),
  ),
];
/** The API reference's operation pages: each has a curl, an SDK and a CLI sample of its request (scripts/samples.mjs). */
const referencePages = operationsByTag(openApiDocument).flatMap(({ tag, operations }) =>
  operations.map((operation) => ({ file: `reference/api/${operation.operationId}.md`, tag, operation })),
);
const blocksOf = (file: string) => codeBlocks(file, readFileSync(join(DOCS, 'site', file), 'utf8'));
const samplesOf = (file: string) => blocksOf(file).filter((block) => RUNNABLE.has(block.lang));

let server: RunningServer;
/** Samples reach the server through this proxy, which records every answer's status. */
let proxy: RecordingProxy;
let origin: string;
let baseUrl: string;
let itemId: string;
let work: string;
let binDir: string;
let typeErrors: string[] = [];

/** A free loopback port for a sample that starts its own server. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The key samples run with: each page gets its own, so one page's requests never spend another's rate limit. */
let pageKey: string;
/** A test key (`cvk_test_…`) of the demo organization, which reaches its sandbox: the test mode guide's samples use it. */
let testKey: string;

function sampleEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    HOME: join(work, 'home'),
    TMPDIR: tmpdir(),
    NO_COLOR: '1',
    COINVENTORY_API_KEY: pageKey,
    COINVENTORY_TEST_API_KEY: testKey,
    COINVENTORY_BASE_URL: baseUrl,
    COINVENTORY_DATA_DIR: server.dataDir,
    ITEM_ID: itemId,
    ...extra,
  };
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function collect(child: ChildProcess): { output: () => string; done: Promise<Finished> } {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const done = exitedWithOutput(child).then(({ code, signal }) => ({ code, signal, output }));
  return { output: () => output, done };
}

async function runBash(block: CodeBlock, env: NodeJS.ProcessEnv): Promise<Finished> {
  // The live server's address, as the sample's environment names it (the recording proxy it goes through).
  const code = block.code.replaceAll(WRITTEN_ORIGIN, new URL(env.COINVENTORY_BASE_URL ?? baseUrl).origin);
  const child = spawn('bash', ['-euo', 'pipefail', '-c', code], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), SAMPLE_LIMIT_MS);
  const result = await collect(child).done;
  clearTimeout(timer);
  return result;
}

/** The PostgreSQL server `server; postgres` samples run on: a throwaway cluster, started by the first of them. */
let cluster: PostgresCluster | undefined;
const POSTGRES_BIN = findPostgresBin();
/** Without PostgreSQL's binaries those samples are skipped, except under CI, where they must run (as the server's). */
const postgresMissing = POSTGRES_BIN === null && !process.env.CI;
const WRITTEN_DATABASE_URL = /postgres:\/\/[^\s"']+/g;

async function clusterUrl(): Promise<string> {
  if (!POSTGRES_BIN) throw new Error('PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin or PG_BIN)');
  cluster ??= await startCluster(POSTGRES_BIN, { settings: THROWAWAY_SETTINGS, prefix: 'coinventory-docs-pg-' });
  return cluster.url;
}

/** A sample that starts a server: it must answer /healthz on its own port within a minute and stop on SIGTERM. */
async function runServerSample(block: CodeBlock, postgres: boolean): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(work, 'server-sample-'));
  const code = postgres ? block.code.replaceAll(WRITTEN_DATABASE_URL, await clusterUrl()) : block.code;
  if (postgres) expect(code, 'a postgres sample names its database with a postgres:// URL').not.toBe(block.code);
  const child = spawn('bash', ['-euo', 'pipefail', '-c', code], {
    cwd: REPO,
    env: sampleEnv({ PORT: String(port), COINVENTORY_DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const { output, done } = collect(child);
  try {
    const deadline = Date.now() + SAMPLE_LIMIT_MS;
    let healthy = false;
    while (!healthy && Date.now() < deadline && child.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((response) => response.ok)
        .catch(() => false);
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(healthy, `no answer on /healthz:\n${output()}`).toBe(true);
    process.kill(-(child.pid ?? 0), 'SIGTERM');
    const result = await done;
    expect(result.code, `did not stop cleanly on SIGTERM:\n${result.output}`).toBe(0);
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid ?? 0), 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `ts` samples: type-checked together against the SDK's published types, then each run as an ES module. */
const SAMPLES_DIR = join(DOCS, '.samples');
const sampleFile = (block: CodeBlock) => join(SAMPLES_DIR, `${block.file.replace(/[/.]/g, '_')}_${block.line}.mts`);

function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}:${d.start ?? ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** A `ts` sample as the ES module that runs (written beside its `.mts`). */
function transpiled(block: CodeBlock): string {
  const source = readFileSync(sampleFile(block), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const file = sampleFile(block).replace(/\.mts$/, '.mjs');
  writeFileSync(file, outputText);
  return file;
}

async function runTs(block: CodeBlock, env: NodeJS.ProcessEnv = sampleEnv()): Promise<Finished> {
  const file = transpiled(block);
  const child = spawn(process.execPath, [file], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), SAMPLE_LIMIT_MS);
  const result = await collect(child).done;
  clearTimeout(timer);
  return result;
}

/**
 * A webhook receiver sample: an endpoint of the live server is made for it at `http://127.0.0.1:PORT/webhooks`, and
 * it runs with that `PORT` and the endpoint's secret in `COINVENTORY_WEBHOOK_SECRET`. Once it listens it gets a test
 * ping, real deliveries, a replay of them, a valuation's change, forged ones and a secret rotation (receiver-sample.ts
 * says what each must come to), then must exit 0 on SIGTERM. The endpoint is deleted afterwards.
 */
async function runReceiverSample(block: CodeBlock): Promise<void> {
  const port = await freePort();
  const api = apiClient(server.baseUrl, await harnessKey());
  const endpoint = await api<{ id: string; secret: string }>('POST', '/webhook-endpoints', {
    url: `http://127.0.0.1:${port}${RECEIVER_PATH}`,
    events: ['*'],
    description: `docs sample ${block.file}:${block.line}`,
  });
  const child = spawn(process.execPath, [transpiled(block)], {
    cwd: REPO,
    env: sampleEnv({ PORT: String(port), COINVENTORY_WEBHOOK_SECRET: endpoint.secret }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, done } = collect(child);
  try {
    await listening(port, SAMPLE_LIMIT_MS, () => child.exitCode === null).catch((error: Error) => {
      throw new Error(`${error.message}:\n${output()}`);
    });
    const operator = async (args: string[]) => {
      const result = await runOperatorCommand(server, args);
      expect(result.code, `coinventory-server ${args.join(' ')}:\n${result.stdout}${result.stderr}`).toBe(0);
    };
    await exerciseReceiver(api, endpoint, port, output, operator, DEMO_ORGANIZATION);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code, `did not stop cleanly on SIGTERM:\n${result.output}`).toBe(0);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await api('DELETE', `/webhook-endpoints/${endpoint.id}`);
  }
}

/**
 * Runs a sample and checks it as the README says: its exit status, and every HTTP answer it received (through
 * `recorder`, a recording proxy only it uses while it runs) below 400 unless declared with `http …`.
 */
async function runChecked(
  block: CodeBlock,
  directive: { exit: number; http: number[] },
  env: NodeJS.ProcessEnv,
  recorder: RecordingProxy,
): Promise<void> {
  recorder.take();
  const result = block.lang === 'ts' ? await runTs(block, env) : await runBash(block, env);
  const exchanges = recorder.take();
  const shown = `\n${block.code}\n--- output ---\n${result.output}\n--- HTTP ---\n${exchanges
    .map(({ method, path, status }) => `${status} ${method} ${path}`)
    .join('\n')}`;
  expect(result.code, `exit status of${shown}`).toBe(directive.exit);
  // Exit 0 is not enough: `curl -sS` exits 0 on a 401 or a 500. Every error answer must be one the page shows.
  const errors = exchanges.filter(({ status }) => status >= 400);
  const unexpected = errors.filter(({ status }) => !directive.http.includes(status));
  expect(unexpected, `error answers not declared with <!-- sample: http … -->:${shown}`).toEqual([]);
  const missing = directive.http.filter((status) => !errors.some((exchange) => exchange.status === status));
  expect(missing, `declared error answers never received:${shown}`).toEqual([]);
}

/** The npx on the PATH the test was started with. */
function realNpx(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'npx'))) return join(dir, 'npx');
  }
  throw new Error('npx is not on the PATH');
}

/** A shell script standing in for npx: `@coinventory/server` and `@coinventory/cli` run the built binaries. */
function npxStandIn(npx: string): string {
  return `#!/bin/sh
for arg in "$@"; do case "$arg" in -y|--yes) ;; *) package=$arg; break;; esac; done
case "$package" in
  @coinventory/server|@coinventory/cli)
    while [ "$1" != "$package" ]; do shift; done
    shift
    if [ "$package" = @coinventory/server ]; then exec "${process.execPath}" ${TEST_SERVER_NODE_FLAGS.join(' ')} "${SERVER_BIN}" "$@"; fi
    exec "${process.execPath}" "${CLI_BIN}" "$@";;
esac
exec "${npx}" "$@"
`;
}

/** The key the test's own requests around samples use, apart from the samples' keys and their rate limits. */
let harness: Promise<string> | undefined;
const harnessKey = () => {
  harness ??= createKey(server, 'docs samples: the test itself', 'read,write');
  return harness;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'coinventory-docs-samples-'));
  mkdirSync(join(work, 'home'));
  binDir = join(work, 'bin');
  mkdirSync(binDir);
  for (const [name, target, flags] of [
    ['coinventory', CLI_BIN, ''],
    ['coinventory-server', SERVER_BIN, TEST_SERVER_NODE_FLAGS.join(' ')],
  ] as const) {
    writeFileSync(join(binDir, name), `#!/bin/sh\nexec "${process.execPath}" ${flags} "${target}" "$@"\n`);
    chmodSync(join(binDir, name), 0o755);
  }
  // `npx [-y] @coinventory/server …` (and the CLI) in a guide runs this clone's build, as `npm install -g` samples
  // are skipped: the packages are not on the public registry from a test. The release test (release/) installs them
  // from a registry as users do. Any other npx call goes to the real npx.
  writeFileSync(join(binDir, 'npx'), npxStandIn(realNpx()));
  chmodSync(join(binDir, 'npx'), 0o755);
  // Receiver samples listen on loopback, which webhook deliveries reach only where the operator allows it.
  server = await startServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  proxy = await startRecordingProxy(new URL(server.baseUrl).origin);
  origin = proxy.origin;
  baseUrl = `${origin}${new URL(server.baseUrl).pathname}`;

  // ITEM_ID: a demo item with valuations, found through the API as a reader would.
  const headers = { authorization: `Bearer ${server.apiKey}` };
  const list = (await (await fetch(`${server.baseUrl}/items?limit=100`, { headers })).json()) as {
    items: Array<{ id: string }>;
  };
  for (const { id } of list.items) {
    const valuations = (await (await fetch(`${server.baseUrl}/items/${id}/valuations`, { headers })).json()) as {
      items: unknown[];
    };
    if (valuations.items.length > 1) {
      itemId = id;
      break;
    }
  }
  expect(itemId).toBeDefined();
  testKey = await createKey(server, 'docs samples: test mode', 'read,write', 'test');

  // Every ts sample of every page, written out and type-checked in one program.
  rmSync(SAMPLES_DIR, { recursive: true, force: true });
  mkdirSync(SAMPLES_DIR, { recursive: true });
  const tsSamples = [...pages, ...referencePages]
    .flatMap(({ file }) => samplesOf(file))
    .filter((block) => block.lang === 'ts');
  for (const block of tsSamples) writeFileSync(sampleFile(block), block.code);
  typeErrors = tsSamples.length ? typeCheck(tsSamples.map(sampleFile)) : [];
}, 120_000 * CI_SLOWDOWN);

afterAll(async () => {
  await proxy?.close();
  await stopServer(server);
  cluster?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the guides', () => {
  it('are all in the sidebar, and the sidebar names no missing page', () => {
    const written = readdirSync(join(DOCS, 'site/guide'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `guide/${name}`)
      .sort();
    const listed = pages.filter(({ file }) => file.startsWith('guide/')).map(({ file }) => file);
    expect(written).toEqual([...listed].sort());
  });

  it('write code blocks in known languages, with valid directives (the API reference too)', () => {
    const problems: string[] = [];
    for (const { file } of [...pages, ...referencePages]) {
      for (const block of blocksOf(file)) {
        const where = `${block.file}:${block.line}`;
        if (!RUNNABLE.has(block.lang) && !NOT_RUN.has(block.lang))
          problems.push(
            `${where}: language "${block.lang}" (samples are bash or ts; output json, text, http, ini, yaml)`,
          );
        if (block.directive.kind === 'invalid') problems.push(`${where}: unknown directive "${block.directive.text}"`);
        if (!isPlainRun(block.directive) && !RUNNABLE.has(block.lang))
          problems.push(`${where}: a directive on a ${block.lang} block, which never runs`);
        if (block.directive.kind === 'server' && block.lang !== 'bash')
          problems.push(`${where}: a server sample is bash`);
        if (block.directive.kind === 'receiver' && block.lang !== 'ts')
          problems.push(`${where}: a receiver sample is ts`);
      }
    }
    expect(problems).toEqual([]);
  });

  /** Skip reasons that name the test which runs the sample instead: each such test reads the page's blocks itself. */
  const RUN_ELSEWHERE = /the release test runs it|run by the container test|test\/[\w-]+\.test\.ts runs it/;

  it('run every sample but the few marked skip, each with its reason', () => {
    const skipped = pages
      .flatMap(({ file }) => samplesOf(file))
      .flatMap((block) =>
        block.directive.kind === 'skip' ? [`${block.file}:${block.line}: ${block.directive.reason}`] : [],
      );
    const all = pages.flatMap(({ file }) => samplesOf(file)).length;
    console.info(`${all - skipped.length} of ${all} samples run; not run:\n  ${skipped.join('\n  ')}`);
    // A sample another test runs as written (the release test, the container test, a test file it names) is not
    // lost; the cap is on the rest.
    const notRunAnywhere = skipped.filter((line) => !RUN_ELSEWHERE.test(line));
    expect(notRunAnywhere.length).toBeLessThanOrEqual(Math.ceil(all / 10));
  });

  it('have TypeScript samples that type-check against the SDK', () => {
    expect(typeErrors).toEqual([]);
  });
});

for (const { file } of pages) {
  const samples = samplesOf(file).filter((block) => block.directive.kind !== 'skip');
  if (samples.length === 0) continue;
  describe(file, () => {
    beforeAll(async () => {
      pageKey = await createKey(server, `docs samples: ${file}`, 'read,write');
    });
    for (const block of samples) {
      const kind = block.directive.kind;
      const name = `${block.lang} sample at line ${block.line}${kind === 'server' || kind === 'receiver' ? ` (${kind})` : ''}`;
      it(
        name,
        async (context) => {
          const { directive } = block;
          if (directive.kind === 'server' && directive.postgres && postgresMissing) {
            console.warn(`${block.file}:${block.line}: skipped, no PostgreSQL server binaries on this machine`);
            return context.skip();
          }
          if (directive.kind === 'server') return runServerSample(block, directive.postgres);
          if (directive.kind === 'receiver') return runReceiverSample(block);
          if (directive.kind !== 'run')
            throw new Error(`${block.file}:${block.line}: cannot run a ${directive.kind} sample`);
          proxy.take();
          await runChecked(block, directive, sampleEnv(), proxy);
        },
        SAMPLE_TEST_TIMEOUT_MS,
      );
    }
  });
}

/**
 * The API reference's request samples: on each operation's page, curl, the SDK and the CLI send the same request, and
 * each must succeed against the live server (exit 0, every answer below 400). What they name must exist:
 * - an id in the path (`ITEM_ID`, `WEBHOOK_ENDPOINT_ID`…) is an object of the organization: for a read, a demo one (the
 *   item with valuations the guides use, the first of its list) or one made once; for a write, a fresh one made for
 *   that sample alone, so that three deletes delete three objects;
 * - `CHANGES_CURSOR` is the changes feed's end, taken just before the sample.
 * What a sample creates (a `POST` to a collection) is deleted after it, so the next sample can create it again.
 * The three samples of a page run at once, each through its own recording proxy; pages one after the other.
 */
describe('the API reference', () => {
  /** Objects the test makes for samples, by collection: what it POSTs there. */
  const MAKE: Record<string, (n: number) => Record<string, unknown>> = {
    '/items': (n) => ({ sku: `DOCS-REFERENCE-${n}`, title: 'A reference sample item', valueInCents: 100 }),
    '/webhook-endpoints': () => ({ url: `${sink.url}/webhooks`, events: ['*'], description: 'docs reference sample' }),
  };
  let made = 0;
  const make = async (collection: string, body: (n: number) => Record<string, unknown>) => {
    made += 1;
    return (await api<{ id: string }>('POST', collection, body(made))).id;
  };
  /**
   * Objects made through another collection's route, by collection: a reservation holds a unit of an item made for
   * it (whose path goes to `fresh`, deleted after the sample; the reservation has no delete of its own).
   */
  const MAKE_THROUGH: Record<string, (fresh: string[]) => Promise<string>> = {
    '/reservations': async (fresh) => {
      const itemId = await make('/items', (n) => ({ sku: `DOCS-RESERVED-${n}`, title: 'A reserved sample item' }));
      fresh.push(`/items/${itemId}`);
      return (await api<{ id: string }>('POST', `/items/${itemId}/reservations`, { quantity: 1 })).id;
    },
  };
  /** A receiver every endpoint the test makes delivers to: it answers 204, so `coinventory webhooks test` exits 0. */
  const sink = { url: '', server: undefined as Server | undefined };
  /** The test's own requests (fixtures and clean-up), with a key of their own, straight to the server. */
  let api: ReturnType<typeof apiClient>;
  /** The id each read's path variable names (`CONSIGNMENT_ID`: the first consignment). */
  const shared = new Map<string, string>();
  /** The key of each tag's pages: one per tag keeps every key far from the rate limit without a key per page. */
  const tagKeys = new Map<string, Promise<string>>();
  /** One recording proxy for each sample of a page, so the three can run at once and their answers stay apart. */
  let lanes: RecordingProxy[] = [];

  const collectionOf = (path: string) => `/${path.split('/')[1]}`;

  beforeAll(async () => {
    sink.server = createHttpServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    sink.server.listen(0, '127.0.0.1');
    await once(sink.server, 'listening');
    const address = sink.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    sink.url = `http://127.0.0.1:${address.port}`;
    api = apiClient(server.baseUrl, await createKey(server, 'docs samples: the API reference fixtures', 'read,write'));
    lanes = await Promise.all([1, 2, 3].map(() => startRecordingProxy(new URL(server.baseUrl).origin)));
  });

  afterAll(async () => {
    await Promise.all(lanes.map((lane) => lane.close()));
    await new Promise((resolve) => sink.server?.close(resolve));
  });

  /** The object a path variable names: shared for reads, fresh (and listed for deletion) for writes. */
  async function pathObject(operation: DocumentOperation, parameter: string, fresh: string[]): Promise<string> {
    const name = pathEnvName(operation.path, parameter);
    const collection = collectionOf(operation.path);
    const body = MAKE[collection];
    const through = MAKE_THROUGH[collection];
    if (operation.method !== 'GET' && through) return through(fresh);
    if (operation.method !== 'GET') {
      if (!body) throw new Error(`${operation.operationId}: no way to make an object of ${collection} for it`);
      const id = await make(collection, body);
      fresh.push(`${collection}/${id}`);
      return id;
    }
    if (name === 'ITEM_ID') return itemId;
    const known = shared.get(name);
    if (known) return known;
    const { items } = await api<{ items: Array<{ id: string }> }>('GET', `${collection}?limit=1`);
    let id = items[0]?.id;
    if (!id && body) id = await make(collection, body);
    if (!id && through) id = await through([]);
    if (!id) throw new Error(`${operation.operationId}: ${collection} is empty in the demo organization`);
    shared.set(name, id);
    return id;
  }

  const listIds = async (collection: string) =>
    (await api<{ items: Array<{ id: string }> }>('GET', `${collection}?limit=100`)).items.map(({ id }) => id);

  for (const { file, tag, operation } of referencePages) {
    describe(file, () => {
      const samples = samplesOf(file);

      it('shows the request three ways: curl, the SDK and the CLI', () => {
        expect(samples.map((block) => block.lang)).toEqual(['bash', 'ts', 'bash']);
        expect(samples[0]?.code).toMatch(/^curl /);
        expect(samples[1]?.code).toContain("from '@coinventory/sdk'");
        expect(samples[2]?.code).toMatch(/^coinventory /);
        expect(samples.map((block) => block.directive)).toEqual(
          samples.map(() => ({ kind: 'run', exit: 0, http: [] })),
        );
      });

      it(
        'runs each of them against the live server',
        async () => {
          if (!tagKeys.has(tag))
            tagKeys.set(tag, createKey(server, `docs samples: the API reference, ${tag}`, 'read,write'));
          const key = await tagKeys.get(tag);
          const names = requestEnv(sampleRequest(operation));
          const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
          // A create (a POST to a collection) is run one sample at a time, each cleaned up before the next, so the
          // three can create the same thing; the others at once.
          const creates = operation.method === 'POST' && pathParameters.length === 0;
          const run = async (block: CodeBlock, lane: RecordingProxy) => {
            const fresh: string[] = [];
            const extra: Record<string, string> = {};
            for (const parameter of pathParameters)
              extra[pathEnvName(operation.path, parameter.name)] = await pathObject(operation, parameter.name, fresh);
            if (names.includes(CURSOR_ENV))
              extra[CURSOR_ENV] = (await api<{ cursor: string }>('GET', '/changes/cursor')).cursor;
            const before = creates ? await listIds(collectionOf(operation.path)) : [];
            const laneUrl = `${lane.origin}${new URL(server.baseUrl).pathname}`;
            try {
              const env = sampleEnv({
                COINVENTORY_API_KEY: key ?? '',
                COINVENTORY_BASE_URL: laneUrl,
                ...extra,
              });
              await runChecked(block, { exit: 0, http: [] }, env, lane);
            } finally {
              if (creates) {
                const collection = collectionOf(operation.path);
                for (const id of await listIds(collection)) if (!before.includes(id)) fresh.push(`${collection}/${id}`);
              }
              for (const path of fresh) await api('DELETE', path).catch(() => undefined); // gone if the sample deleted it
            }
          };
          const outcomes: PromiseSettledResult<void>[] = [];
          if (creates)
            for (const [i, block] of samples.entries())
              outcomes.push(...(await Promise.allSettled([run(block, lanes[i] as RecordingProxy)])));
          else
            outcomes.push(
              ...(await Promise.allSettled(samples.map((block, i) => run(block, lanes[i] as RecordingProxy)))),
            );
          const failed = outcomes.flatMap((outcome, i) =>
            outcome.status === 'rejected'
              ? [`${samples[i]?.lang} sample at line ${samples[i]?.line}: ${outcome.reason}`]
              : [],
          );
          if (failed.length) throw new Error(`${file}:\n\n${failed.join('\n\n')}`);
        },
        SAMPLE_TEST_TIMEOUT_MS,
      );
    });
  }
});
