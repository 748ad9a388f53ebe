import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_PATTERN } from '../../src/modules/access/index.js';
import { fromStderr, removeTempDirs, run, runToEnd, start, stop, tempDir } from '../support/binary.js';
import { client } from '../support/http.js';

afterAll(removeTempDirs);

async function occupy(port = 0): Promise<Server> {
  const blocker = createServer();
  blocker.listen(port, '127.0.0.1');
  await once(blocker, 'listening');
  return blocker;
}
const portOf = (server: Server) => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
};
const release = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('coinventory-server start when its port is taken', () => {
  it('says so in one line naming PORT and exits 1 before creating the demo, whose key the next start prints', async () => {
    const dataDir = join(tempDir(), 'data');
    const blocker = await occupy();
    const port = portOf(blocker);
    try {
      const failed = await runToEnd(['start'], { COINVENTORY_DATA_DIR: dataDir, PORT: String(port) });
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr.trim().split('\n')).toEqual([
        `coinventory-server: Port ${port} is already in use (PORT=${port}, HOST=127.0.0.1). Stop what uses it, or set PORT.`,
      ]);
      expect(failed.stdout).not.toContain('demo organization created');
    } finally {
      await release(blocker);
    }

    const server = await start({ COINVENTORY_DATA_DIR: dataDir, PORT: String(port) });
    try {
      const key = (await fromStderr(server, /(cvk_live_[0-9A-Za-z]+)/))?.[1] ?? '';
      expect(key, server.stderr()).toMatch(KEY_PATTERN);
      expect((await client(server.baseUrl, key).get('/me')).status).toBe(200);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });

  it('a request that connects while the server is still migrating waits, and is answered once it has started', async () => {
    const probe = await occupy();
    const port = portOf(probe);
    await release(probe);
    const child = run(['start'], { COINVENTORY_DATA_DIR: join(tempDir(), 'data'), PORT: String(port) });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    try {
      let socket: Socket | undefined;
      for (let attempt = 0; !socket && attempt < 3_000 && child.exitCode === null; attempt++) {
        const trying = createConnection(port, '127.0.0.1');
        socket = await once(trying, 'connect').then(
          () => trying,
          () => undefined,
        );
        if (!socket) await sleep(10);
      }
      if (!socket) throw new Error(`the server never took its port:\n${stdout}`);
      // The port is taken before the database is opened: this connection came before any migration ran.
      expect(stdout).not.toContain('migration applied');
      socket.setEncoding('utf8');
      let response = '';
      socket.on('data', (chunk: string) => {
        response += chunk;
      });
      socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      await once(socket, 'end');
      expect(stdout).toContain('migration applied');
      expect(response).toMatch(/^HTTP\/1\.1 200 /);
      expect(response).toContain('{"status":"ok","database":"reachable"}');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
