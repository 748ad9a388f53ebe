// The real server binary as other packages' tests use it (the SDK's, the CLI's, the docs' samples): started on a
// fresh embedded database in a temporary directory, reached over loopback, stopped with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server's binary, built in its place in this repository (this module runs from tooling/test-server/dist). Found
 * by path rather than as a dependency: the server's own tests use this package, and a dependency back on the server
 * would be a cycle. The packages that start it list @coinventory/server themselves, so it is built before their tests.
 */
export const SERVER_BIN = fileURLToPath(new URL('../../../packages/server/dist/main.js', import.meta.url));

/**
 * Node's flags for a server a test starts. It lives seconds, not days: on the embedded database V8's optimizing tier
 * recompiles PostgreSQL's hot WebAssembly in the background at more CPU than it saves in that time, about a third of a
 * start. The baseline compiler alone runs the same code. (The binary sets it itself for an operator command; a
 * deployed server keeps both tiers.)
 */
export const TEST_SERVER_NODE_FLAGS = ['--liftoff-only'];

/** The demo organization every fresh embedded database gets, and its owner (the creator of new keys). */
export const DEMO_ORGANIZATION = 'liberty-coin';
export const DEMO_OWNER = 'owner@liberty-coin.example';

export interface ServerInfo {
  /** The API's base URL, ending in /v1. */
  baseUrl: string;
  /** The demo organization's read/write key, printed once on first start. */
  apiKey: string;
  /** The data directory of the embedded database (operator commands reach the server through it). */
  dataDir: string;
}

export interface RunningServer extends ServerInfo {
  child: ChildProcess;
  /** Everything the server has written so far. */
  output(): { stdout: string; stderr: string };
}

/** The environment of the server and of operator commands run against its data directory. */
export const serverEnv = (dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  PORT: '0',
  HOST: '127.0.0.1',
  COINVENTORY_DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  ...extra,
});

const KEY = /\bcvk_live_[0-9A-Za-z]{38}\b/;

/**
 * Starts `coinventory-server start` on a fresh embedded database in a temporary directory, with `extra` environment
 * (a tighter rate limit, say). Resolves once it logs "listening" (its base URL) and knows the demo key.
 *
 * The database is a copy of one the same server build made on its first start (its demo organization and key), not a
 * new one each time: a first start (initdb, migrations, the demo data) costs about ten times a start on an existing
 * directory, and a test run starts a dozen servers. The copy is the same data as a first start would make; tests of
 * the first start itself spawn the binary on an empty directory. With `DATABASE_URL` in `extra`, nothing is copied.
 */
export async function startServer(extra: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(SERVER_BIN)) throw new Error(`${SERVER_BIN} is missing: build @coinventory/server first`);
  const template = extra.DATABASE_URL === undefined ? await firstStartTemplate() : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'coinventory-server-'));
  try {
    if (template) cpSync(template.dataDir, dataDir, { recursive: true });
    const started = await spawnServer(dataDir, extra, template?.apiKey);
    return { ...started, dataDir };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The binary started on `dataDir`, once it listens and the demo key is known (printed on a first start). */
async function spawnServer(
  dataDir: string,
  extra: Record<string, string>,
  knownKey: string | undefined,
): Promise<Omit<RunningServer, 'dataDir'>> {
  const child = spawn(process.execPath, [...TEST_SERVER_NODE_FLAGS, SERVER_BIN, 'start'], {
    env: serverEnv(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const started = new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    let baseUrl: string | undefined;
    let apiKey = knownKey;
    const check = () => {
      if (baseUrl && apiKey) resolve({ baseUrl, apiKey });
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        if (line.includes('"listening"')) baseUrl = (JSON.parse(line) as { baseUrl: string }).baseUrl;
      }
      check();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      apiKey ??= KEY.exec(stderr)?.[0];
      check();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`)));
  });
  try {
    const { baseUrl, apiKey } = await started;
    return { baseUrl, apiKey, child, output: () => ({ stdout, stderr }) };
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
}

/** Where first-start databases are kept, one per server build. */
const TEMPLATES = join(tmpdir(), 'coinventory-server-templates');

export interface Template {
  dataDir: string;
  apiKey: string;
}

/** Whether a process of this id is running (a signal 0 reaches it, or it is someone else's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Longer than any first start takes, even on a loaded machine: a lock older than this was left behind. */
const STALE_LOCK_MS = 10 * 60_000;

/**
 * Takes `lock` (a directory, made atomically, holding the taker's pid) and resolves with its release; while another
 * live process holds it, waits until `done()` or until that process is gone (a lock left by a dead one, or a stale
 * one, is taken over). Resolves with undefined when `done()` came true while waiting.
 */
async function lockOrWait(lock: string, done: () => boolean): Promise<(() => void) | undefined> {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (done()) return undefined;
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      // Just made: its pid is on its way.
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // Released meanwhile: try again.
    }
    const dead = Number.isInteger(holder) && holder > 0 && !alive(holder);
    if (dead || age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The database and demo key of a first start of this server build, made once and kept in the temporary directory. A
 * build is told apart by its binary's size and time; templates of other builds are removed when a new one is made.
 * Suites run at once (the SDK's, the CLI's, the docs') all ask for it as they begin: the first takes a lock and makes
 * it, the others wait for it instead of each paying for a first start of their own.
 */
export async function firstStartTemplate(): Promise<Template> {
  const { size, mtimeMs } = statSync(SERVER_BIN);
  const dir = join(TEMPLATES, `build-${size}-${Math.trunc(mtimeMs)}`);
  const read = (): Template => ({ dataDir: join(dir, 'data'), apiKey: readFileSync(join(dir, 'key'), 'utf8') });
  const made = () => existsSync(join(dir, 'key'));
  if (made()) return read();
  mkdirSync(TEMPLATES, { recursive: true });
  const release = await lockOrWait(`${dir}.lock`, made);
  if (!release) return read();
  if (made()) {
    release();
    return read();
  }
  const building = mkdtempSync(join(TEMPLATES, 'making-'));
  try {
    const server = await spawnServer(join(building, 'data'), {}, undefined);
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    if (code !== 0) throw new Error(`the first start exited with ${code} on SIGTERM:\n${server.output().stderr}`);
    writeFileSync(join(building, 'key'), server.apiKey);
    for (const other of readdirSync(TEMPLATES)) {
      const current = `build-${size}-${Math.trunc(mtimeMs)}`;
      if (other.startsWith('build-') && other !== current && other !== `${current}.lock`) {
        rmSync(join(TEMPLATES, other), { recursive: true, force: true });
      }
    }
    try {
      renameSync(building, dir);
    } catch (error) {
      // Another process published the same build's template first: use that one.
      if (!existsSync(join(dir, 'key'))) throw error;
    }
    return read();
  } finally {
    rmSync(building, { recursive: true, force: true });
    release();
  }
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How long, after a child has exited, its pipes may take to deliver what it wrote before it did. A process of its own
 * that still holds them (one the child started) would keep them open for good: what came before is returned then.
 */
const OUTPUT_AFTER_EXIT_MS = 10_000;

/**
 * The child's exit code and signal, once it has exited and what it wrote has been read. Its 'exit' can come before
 * the last of its output: on a loaded machine a command's one line on stderr was read after it. Call it before the
 * child can have exited (as soon as it is spawned).
 */
export async function exitedWithOutput(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  // Also rejected, as 'exit' is, if the child could not be started: that rejection is the one thrown.
  const closed = once(child, 'close').catch(() => undefined);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, OUTPUT_AFTER_EXIT_MS)))]);
  clearTimeout(timer);
  return { code, signal };
}

/** Everything a child process writes, and its exit code, once it has exited (see exitedWithOutput). */
export async function outputOf(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const { code } = await exitedWithOutput(child);
  return { code, stdout, stderr };
}

/** Runs an operator command (`coinventory-server <args>`) against the server's data directory. */
export function runOperatorCommand(server: ServerInfo, args: string[]): Promise<Finished> {
  const child = spawn(process.execPath, [SERVER_BIN, ...args], {
    env: serverEnv(server.dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return outputOf(child);
}

/**
 * Creates a key of the demo organization through the running server's operator socket: a live key, or with
 * `mode: 'test'` a test key (`cvk_test_…`), which reaches the organization's sandbox.
 */
export async function createKey(
  server: ServerInfo,
  name: string,
  scopes: 'read' | 'read,write',
  mode: 'live' | 'test' = 'live',
): Promise<string> {
  const args = ['key', 'create', '--org', DEMO_ORGANIZATION, '--creator', DEMO_OWNER, '--name', name];
  const { code, stdout, stderr } = await runOperatorCommand(server, [
    ...args,
    '--scopes',
    scopes,
    '--mode',
    mode,
    '--json',
  ]);
  if (code !== 0) throw new Error(`key create exited with ${code}:\n${stdout}\n${stderr}`);
  return (JSON.parse(stdout) as { key: string }).key;
}

/** Stops the server with SIGTERM (it finishes in-flight requests) and removes its data directory. */
export async function stopServer(server: RunningServer | undefined): Promise<void> {
  if (!server) return;
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await exited;
  }
  rmSync(server.dataDir, { recursive: true, force: true });
}
