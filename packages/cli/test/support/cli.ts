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

/**
 * Runs `node dist/coinventory.js …args` with stdout and stderr piped (not terminals) and NO_COLOR unset, in
 * TZ=UTC with a scratch HOME and config dir, and checks that no output holds an ANSI escape.
 */
export async function cli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm run build' in packages/cli first`);
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
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
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
  if (!options.allowAnsi) {
    expect(stdout, 'stdout must hold no ANSI escapes when piped').not.toContain('\u001b[');
    expect(stderr, 'stderr must hold no ANSI escapes when piped').not.toContain('\u001b[');
  }
  const result = { code, stdout, stderr };
  timings.set(result, { firstStdoutMs, exitMs });
  return result;
}

/** Output with UUIDs replaced by a same-width placeholder, for snapshots. */
export function scrub(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx')
    .replace(/req_[0-9A-Za-z-]+/g, 'req_…')
    .replace(/cvk_live_[0-9A-Za-z]+/g, 'cvk_live_…');
}
