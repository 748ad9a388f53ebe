import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, cpSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstStartTemplate, TEST_SERVER_NODE_FLAGS } from '@coinventory/test-server';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { removeTempDirs, tempDir } from '../support/binary.js';

/**
 * issue 35, finding 4: a server whose stdout is a FIFO nobody reads any more (a stuck log shipper, `| less` left
 * open) neither piles its log lines up in memory nor blocks: it keeps answering, counts the lines it dropped in
 * /metrics, and SIGTERM stops it within SHUTDOWN_TIMEOUT_MS. On 1cad4fd it answered nothing more once the FIFO was
 * full, and SIGTERM was ignored.
 */

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const SHUTDOWN_TIMEOUT_MS = 1_000;
/** SIGTERM's promise: the shutdown timeout, then a few seconds (the cut-off's grace, closing the database). */
const EXIT_WITHIN_MS = SHUTDOWN_TIMEOUT_MS + 5_000;
const REQUESTS = 3_000;
/** Requests served while the FIFO is still read: the process's memory settles (compiled code, the pool) first. */
const WARM_UP = 200;
const CONCURRENCY = 10;

const children = new Set<ChildProcess>();
const fds: number[] = [];
const killAll = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};
// Even when the run is interrupted, no server is left behind.
process.once('exit', killAll);
afterEach(() => {
  killAll();
  children.clear();
  for (const fd of fds.splice(0)) closeSync(fd);
});
afterAll(removeTempDirs);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The resident set of a process, in MB. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * The server with its stdout on a FIFO the test reads until it calls `stopReading` (after the server's "listening",
 * which gives its base URL). Its stderr is a pipe the test reads to the end.
 */
async function startOnFifo(env: Record<string, string>) {
  const fifo = join(tempDir(), 'stdout.fifo');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  // The read end first (without waiting for a writer), so that opening the write end does not block.
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  fds.push(reader);
  const writer = openSync(fifo, constants.O_WRONLY);
  const child = spawn(process.execPath, [...TEST_SERVER_NODE_FLAGS, MAIN, 'start'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', writer, 'pipe'],
  });
  children.add(child);
  closeSync(writer);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let stdout = '';
  const buffer = Buffer.alloc(65_536);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stdout}\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${stdout}\n${stderr}`);
    try {
      const read = readSync(reader, buffer);
      stdout += buffer.subarray(0, read).toString();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await sleep(50);
    }
    const listening = stdout.split('\n').find((line) => line.includes('"listening"'));
    if (listening) {
      let reading = true;
      // Drains the FIFO until told to stop.
      const drained = (async () => {
        while (reading) {
          try {
            readSync(reader, buffer);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
            await sleep(10);
          }
        }
      })();
      const stopReading = async () => {
        reading = false;
        await drained;
      };
      return { child, baseUrl: (JSON.parse(listening) as { baseUrl: string }).baseUrl, stopReading };
    }
  }
}

/** `count` GET /healthz, `CONCURRENCY` at a time, each within a generous deadline: the first one missed ends it. */
async function load(origin: string, count: number): Promise<{ answered: number; failure: unknown }> {
  let answered = 0;
  let failure: unknown;
  let next = 0;
  const worker = async () => {
    while (next < count && failure === undefined) {
      next += 1;
      try {
        const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status === 200) answered += 1;
      } catch (error) {
        failure = error;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { answered, failure };
}

/** A copy of a first start's embedded database (the demo organization already made), or the test cluster. */
async function databaseEnv(): Promise<Record<string, string>> {
  const dataDir = join(tempDir(), 'data');
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl) return { DATABASE_URL: postgresUrl, COINVENTORY_DATA_DIR: dataDir };
  cpSync((await firstStartTemplate()).dataDir, dataDir, { recursive: true });
  return { COINVENTORY_DATA_DIR: dataDir };
}

/** One process; on PostgreSQL also a cluster, whose processes all write to the same FIFO. */
const concurrencies = inject('postgresUrl') ? [1, 2] : [1];

describe.each(concurrencies)('stdout on a FIFO whose reader has stopped (WEB_CONCURRENCY=%i)', (concurrency) => {
  it(`answers ${REQUESTS} requests in bounded memory, counts the dropped lines, and exits on SIGTERM in time`, {
    timeout: 120_000,
  }, async () => {
    const { child, baseUrl, stopReading } = await startOnFifo({
      ...(await databaseEnv()),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      WEB_CONCURRENCY: String(concurrency),
    });
    const pid = child.pid ?? 0;
    const origin = baseUrl.replace(/\/v1$/, '');
    const warm = await load(origin, WARM_UP);
    expect(warm.failure).toBeUndefined();
    // From here on nobody reads: the FIFO holds 64 KiB of log lines, a few hundred requests' worth. On 1cad4fd the
    // server stopped answering once it was full.
    await stopReading();
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      if (child.exitCode === null) peak = Math.max(peak, rssMb(pid));
    }, 100);
    const { answered, failure } = await load(origin, REQUESTS);
    clearInterval(sampler);
    const metrics =
      failure === undefined
        ? await (await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(5_000) })).text()
        : '';

    const sent = Date.now();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), sleep(EXIT_WITHIN_MS).then(() => false)]);
    const tookMs = Date.now() - sent;

    expect(stopped, `still running ${tookMs} ms after SIGTERM`).toBe(true);
    expect(child.exitCode).toBe(0);
    expect(failure, 'a request was not answered in time').toBeUndefined();
    expect(answered).toBe(REQUESTS);
    const dropped = Number(/^coinventory_log_lines_dropped_total (\d+)$/m.exec(metrics)?.[1]);
    expect(dropped).toBeGreaterThan(0);
    // A sanity bound only: serving 3,000 requests grows V8's heap by some 60 MB with stdout on /dev/null too, more
    // than the lines themselves would take. That lines are dropped rather than held is what `dropped` shows, and
    // log-output.embedded.test.ts measures the bound itself. (In a cluster this is the primary, which logs little.)
    expect(peak - baseline).toBeLessThan(150);
  });
});
