import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY_FILE, keepDemoKey, keptDemoKey } from '../../src/demo/index.js';
import { KEY_PATTERN } from '../../src/modules/access/index.js';
import { fromStderr, type Running, removeTempDirs, run, start, stop, tempDir } from '../support/binary.js';
import { client } from '../support/http.js';

/**
 * issue 35, finding 4: the demo key is never lost. A first start whose output goes nowhere (`2>&1 | true`) created
 * the demo organization, exited 1 and never showed its key, and later starts showed none. Now the key is printed once
 * the server listens, at every start until it is first used, and kept in the data directory (owner-only) till then.
 */

const servers: Running[] = [];
const killAll = () => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
};
// Even when the run is interrupted, no server is left behind.
process.once('exit', killAll);
afterEach(killAll);
afterAll(removeTempDirs);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the demo key', () => {
  it('survives a first start into a closed pipe: the next start prints it, until it is used', {
    timeout: 120_000,
  }, async () => {
    const dataDir = join(tempDir(), 'data');
    const port = await freePort();
    // `2>&1 | true`: the reader of stdout and stderr is gone before the server writes anything.
    const blind = run(['start'], { COINVENTORY_DATA_DIR: dataDir, PORT: String(port) });
    servers.push({ child: blind, baseUrl: '', stdout: () => '', stderr: () => '' });
    blind.stdout?.destroy();
    blind.stderr?.destroy();
    const health = `http://127.0.0.1:${port}/healthz`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      expect(blind.exitCode, 'the server ended on its closed output').toBeNull();
      expect(Date.now()).toBeLessThan(deadline);
      const ok = await fetch(health, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(100);
    }
    // It serves, and stops cleanly, though nothing could read what it wrote.
    const exited = new Promise<number | null>((resolve) => blind.once('exit', resolve));
    blind.kill('SIGTERM');
    expect(await exited).toBe(0);

    // Kept for its owner only, until used.
    const keptIn = join(dataDir, DEMO_KEY_FILE);
    expect(statSync(keptIn).mode & 0o777).toBe(0o600);

    const again = await start({ COINVENTORY_DATA_DIR: dataDir });
    servers.push(again);
    let key = '';
    try {
      const printed = await fromStderr(again, /(cvk_live_[0-9A-Za-z]+)/);
      expect(printed, again.stderr()).not.toBeNull();
      key = printed?.[1] ?? '';
      expect(key).toMatch(KEY_PATTERN);
      expect(again.stderr()).toContain('not used yet');
      expect(again.stderr()).toContain(keptIn);
      expect((await client(again.baseUrl, key).get('/me')).status).toBe(200);
    } finally {
      expect(await stop(again)).toBe(0);
    }

    // Used: the next start neither prints it nor keeps it.
    const used = await start({ COINVENTORY_DATA_DIR: dataDir });
    servers.push(used);
    try {
      expect(used.stderr()).not.toContain('cvk_live_');
      expect(existsSync(keptIn)).toBe(false);
      expect((await client(used.baseUrl, key).get('/me')).status).toBe(200);
    } finally {
      expect(await stop(used)).toBe(0);
    }
  });

  it('is kept owner-only even where a stale temporary file, readable by all, is left', () => {
    // A crashed write, or a reused pid: writing over an existing file would keep that file's mode.
    const dataDir = tempDir();
    const stale = `${join(dataDir, DEMO_KEY_FILE)}.${process.pid}.tmp`;
    writeFileSync(stale, 'stale');
    chmodSync(stale, 0o644);
    keepDemoKey(dataDir, 'cvk_live_kept');
    expect(statSync(join(dataDir, DEMO_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(keptDemoKey(dataDir)).toBe('cvk_live_kept');
    expect(existsSync(stale)).toBe(false);
  });
});
