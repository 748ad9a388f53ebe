import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outputOf, TEST_SERVER_NODE_FLAGS } from '@coinventory/test-server';
import { expect } from 'vitest';

/** The built binary, run as an operator would run it. */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface Running {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  stderr: () => string;
}

/** Spawns the binary with these arguments and environment, without waiting for anything. */
export function run(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...TEST_SERVER_NODE_FLAGS, MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts `coinventory-server start` and waits for its "listening" log line. */
export async function start(env: Record<string, string>): Promise<Running> {
  const child = run(['start'], env);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stdout}\n${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        if (!line.includes('"listening"')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { baseUrl: string }).baseUrl);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`)));
  }).catch((error: unknown) => {
    // A server that did not start is not left running behind the failed test.
    child.kill('SIGKILL');
    throw error;
  });
  return { child, baseUrl, stdout: () => stdout, stderr: () => stderr };
}

/**
 * What `pattern` matches on the server's stderr, once it has arrived. The server writes there (the demo key) before
 * it logs "listening" on stdout, but the two pipes are read apart: on a loaded machine stdout's line can come first.
 */
export async function fromStderr(
  running: Running,
  pattern: RegExp,
  timeoutMs = 10_000,
): Promise<RegExpExecArray | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(running.stderr());
    if (match || Date.now() > deadline || running.child.exitCode !== null) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function stop(running: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (running.child.exitCode !== null) return running.child.exitCode;
  running.child.kill(signal);
  const [code] = (await once(running.child, 'exit')) as [number | null];
  return code;
}

export const runToEnd = (args: string[], env: Record<string, string>) => outputOf(run(args, env));

const dirs: string[] = [];
/** A temporary directory, removed by removeTempDirs(). */
export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinventory-main-'));
  dirs.push(dir);
  return dir;
};
export const removeTempDirs = () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** The pid of a process that has exited: what a crashed server leaves in its lock file. */
export function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('could not spawn');
  expect(() => process.kill(pid, 0)).toThrow();
  return pid;
}
