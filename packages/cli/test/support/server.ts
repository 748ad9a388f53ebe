import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real server's binary, built by turbo before this package's tests (`@coinventory/server` is a devDependency). */
const MAIN = fileURLToPath(new URL('../../../server/dist/main.js', import.meta.url));

export interface ServerInfo {
  baseUrl: string;
  /** The demo workspace's read/write key, printed once on first start. */
  apiKey: string;
  dataDir: string;
}

export interface RunningServer extends ServerInfo {
  child: ChildProcess;
}

const env = (dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  PORT: '0',
  HOST: '127.0.0.1',
  COINVENTORY_DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  ...extra,
});

/**
 * Starts `coinventory-server start` on a fresh embedded database in a temporary directory, with `extra` environment
 * (a tighter rate limit, say). Resolves once it logs "listening" (its base URL) and has printed the demo key.
 */
export async function startServer(extra: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first (cd ../server && pnpm run build)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'coinventory-cli-server-'));
  const child = spawn(process.execPath, [MAIN, 'start'], {
    env: env(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const started = new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    let baseUrl: string | undefined;
    let apiKey: string | undefined;
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
      apiKey = /\bcvk_live_[0-9A-Za-z]{38}\b/.exec(stderr)?.[0];
      check();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`)));
  });
  try {
    const { baseUrl, apiKey } = await started;
    return { baseUrl, apiKey, dataDir, child };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Creates a key of the demo workspace through the running server's admin socket. */
export async function createKey(server: ServerInfo, name: string, scopes: 'read' | 'read,write'): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      MAIN,
      'key',
      'create',
      '--org',
      'liberty-coin',
      '--creator',
      'owner@liberty-coin.example',
      '--name',
      name,
      '--scopes',
      scopes,
      '--json',
    ],
    { env: env(server.dataDir, {}), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
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
