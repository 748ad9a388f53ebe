import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';

/** The built CLI: the tests run exactly what ships (`pnpm run build` first; turbo does it before `test`). */
export const BIN = fileURLToPath(new URL('../../dist/coinventory.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** When output arrived, in ms after the start (not part of CliResult, so results compare with toEqual). */
export const timings = new WeakMap<CliResult, { firstStdoutMs: number | undefined; exitMs: number }>();

export interface RunOptions {
  /** Added to (or, when undefined, removed from) the base environment. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. Without it stdin is empty (/dev/null). */
  input?: string;
  /** Skip the check that nothing contains an ANSI escape (for tests that run under a pseudo-terminal). */
  allowAnsi?: boolean;
}

/** A new temporary directory, inside the run's temporary root (removed by the global setup's teardown). */
export function tempDir(name: string): string {
  return mkdtempSync(join(inject('tmpRoot'), `${name}-`));
}

let scratch: string | undefined;
/** A temporary HOME shared by runs that do not care (so the user's own config is never read). */
export function scratchDir(): string {
  scratch ??= tempDir('home');
  return scratch;
}

/** The environment a run gets: a scratch HOME and config dir, TZ=UTC, no colour settings, plus `options.env`. */
function runEnv(options: RunOptions): NodeJS.ProcessEnv {
  const home = scratchDir();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    TZ: 'UTC',
    COINVENTORY_CONFIG_DIR: join(home, 'cfg'),
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function checkNoAnsi(stdout: string, stderr: string): void {
  expect(stdout, 'stdout must hold no ANSI escapes when piped').not.toContain('\u001b[');
  expect(stderr, 'stderr must hold no ANSI escapes when piped').not.toContain('\u001b[');
}

/**
 * Runs `node dist/coinventory.js …args` with stdout and stderr piped (not terminals) and NO_COLOR unset, in
 * TZ=UTC with a scratch HOME and config dir, and checks that no output holds an ANSI escape.
 */
export async function cli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm run build' in packages/cli first`);
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env: runEnv(options), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let firstStdoutMs: number | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    firstStdoutMs ??= performance.now() - started;
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve(exitCode));
  });
  const exitMs = performance.now() - started;
  if (!options.allowAnsi) checkNoAnsi(stdout, stderr);
  const result = { code, stdout, stderr };
  timings.set(result, { firstStdoutMs, exitMs });
  return result;
}

/** A CLI run that goes on until it is stopped (`changes --follow`), watched as it prints. */
export interface RunningCli {
  /** What it has printed so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves when `stream` satisfies `done`; rejects after `timeoutMs` or if the process ends first. */
  waitFor(stream: 'stdout' | 'stderr', done: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Sends `signal` and resolves with the whole run once the process has exited. */
  stop(signal: NodeJS.Signals): Promise<CliResult>;
}

/** Starts the CLI as `cli` does, without waiting for it to end; stdin is closed. */
export function startCli(args: readonly string[], options: RunOptions = {}): RunningCli {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm run build' in packages/cli first`);
  const child = spawn(process.execPath, [BIN, ...args], { env: runEnv(options), stdio: ['pipe', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    text.stdout += chunk;
    changed();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    text.stderr += chunk;
    changed();
  });
  child.stdin.end();
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      resolve(exitCode);
      changed();
    });
  });
  return {
    output: () => ({ ...text }),
    waitFor: (stream, done, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (done(text[stream])) finish(() => resolve(text[stream]));
          else if (child.exitCode !== null || child.signalCode !== null) {
            finish(() =>
              reject(new Error(`the CLI exited (${child.exitCode}) first:\n${text.stdout}\n${text.stderr}`)),
            );
          }
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting on ${stream}:\n${text.stdout}\n${text.stderr}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      }),
    stop: async (signal) => {
      child.kill(signal);
      const code = await exited;
      checkNoAnsi(text.stdout, text.stderr);
      return { code, ...text };
    },
  };
}

/** Output with UUIDs replaced by a same-width placeholder, for snapshots. */
export function scrub(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx')
    .replace(/req_[0-9A-Za-z-]+/g, 'req_…')
    .replace(/cvk_(live|test)_[0-9A-Za-z]+/g, 'cvk_$1_…');
}
