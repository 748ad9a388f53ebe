import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fromStderr, removeTempDirs, run, start, stop, tempDir } from '../support/binary.js';
import { client } from '../support/http.js';

/**
 * issue 35, finding 5: SIGTERM during start-up stops the start promptly. Against a database that accepts connections
 * but never answers, 1cad4fd waited for the connect to time out (27.5 s) before it exited. Runs once (the embedded
 * project): the "database" here is a silent TCP listener, and the embedded case is the embedded database's own.
 */

/** "Promptly": what a process needs to notice the signal and exit, on a loaded machine. */
const STOPS_WITHIN_MS = 5_000;
/**
 * The embedded database's start-up step under way when the signal comes (unpacking and opening its files) is left to
 * finish, so that they are closed cleanly: a few seconds, more on a loaded machine.
 */
const EMBEDDED_STOPS_WITHIN_MS = 20_000;

const children = new Set<ChildProcess>();
const killAll = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};
process.once('exit', killAll);
const silent: Array<() => Promise<void>> = [];
afterEach(async () => {
  killAll();
  children.clear();
  for (const close of silent.splice(0)) await close();
});
afterAll(removeTempDirs);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A "database" that accepts connections and never says a word; resolves with its URL and its connections so far. */
async function silentDatabase() {
  const sockets: Socket[] = [];
  const listener = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  silent.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => listener.close(resolve));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `postgres://coinventory:secret@127.0.0.1:${address.port}/coinventory`,
    connections: () => sockets.length,
  };
}

/** Sends SIGTERM and resolves with the exit code and how long the exit took (null: not within the bound). */
async function terminate(child: ChildProcess, withinMs = STOPS_WITHIN_MS) {
  const sent = Date.now();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(withinMs).then(() => 'running' as const)]);
  return { code, tookMs: Date.now() - sent };
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function spawned(env: Record<string, string>) {
  const child = run(['start'], env);
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

describe('SIGTERM during start-up', () => {
  for (const concurrency of [1, 2]) {
    it(`stops at once while the database does not answer (WEB_CONCURRENCY=${concurrency})`, async () => {
      const database = await silentDatabase();
      const { child, output } = spawned({
        DATABASE_URL: database.url,
        COINVENTORY_DATA_DIR: tempDir(),
        WEB_CONCURRENCY: String(concurrency),
      });
      // The server (or the cluster's primary, migrating) is connecting: the start is under way.
      await until(() => database.connections() > 0, 'the server to connect');
      await sleep(200);
      const { code, tookMs } = await terminate(child);
      expect(code, `after ${tookMs} ms:\n${output()}`).toBe(0);
      expect(output()).toContain('stopped before the start completed');
    });
  }

  it('on a first embedded start, stops within seconds, leaves no lock, and the next start completes', {
    timeout: 120_000,
  }, async () => {
    const dataDir = join(tempDir(), 'data');
    const { child, output } = spawned({ COINVENTORY_DATA_DIR: dataDir });
    // Once the data directory is locked the embedded database is being set up.
    await until(() => existsSync(join(dataDir, 'coinventory.lock')), 'the data directory to be locked', 60_000);
    const { code, tookMs } = await terminate(child, EMBEDDED_STOPS_WITHIN_MS);
    expect(code, `after ${tookMs} ms:\n${output()}`).toBe(0);
    expect(existsSync(join(dataDir, 'coinventory.lock'))).toBe(false);

    const server = await start({ COINVENTORY_DATA_DIR: dataDir });
    try {
      const key = (await fromStderr(server, /(cvk_live_[0-9A-Za-z]+)/))?.[1];
      expect(key, server.stderr()).toBeDefined();
      expect((await client(server.baseUrl, key ?? '').get('/me')).status).toBe(200);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });
});
