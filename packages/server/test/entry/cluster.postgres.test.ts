import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer as createHttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import type { Sql } from '../../src/db/types.js';
import { type Running, removeTempDirs, run, runToEnd, start, stop } from '../support/binary.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';

/**
 * WEB_CONCURRENCY=2 on DATABASE_URL: a primary and two workers on one port (cluster.ts). Connections are spread over
 * the workers, each request is still verified and counted in PostgreSQL (so the rate limit holds across them), a
 * worker that dies is replaced, and SIGTERM stops them all cleanly.
 */

interface LogLine {
  msg: string;
  worker?: number;
  pid?: number;
  status?: number;
}

const linesOf = (server: Running): LogLine[] =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** GET on a new connection each time (no keep-alive), so the primary hands every request to a worker afresh. */
function getOnNewConnection(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function eventually(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

let admin: Sql;
let sql: Sql;
let databaseName: string;
let databaseUrl: string;
let server: Running;
let organization: TestOrganization;

beforeAll(async () => {
  const clusterUrl = inject('postgresUrl');
  admin = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  databaseName = `cluster_${randomBytes(6).toString('hex')}`;
  await admin`CREATE DATABASE ${admin(databaseName)}`;
  const url = new URL(clusterUrl);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  server = await start({
    DATABASE_URL: databaseUrl,
    WEB_CONCURRENCY: '2',
    RATE_LIMIT_MAX_REQUESTS: '30',
    RATE_LIMIT_WINDOW_SECONDS: '60',
  });
  sql = createSql(databaseUrl, { max: 2, statementTimeoutMs: 0 });
  organization = await createTestOrganization(sql);
});

afterAll(async () => {
  if (server) await stop(server);
  await sql?.end();
  await admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`;
  await admin.end();
  removeTempDirs();
});

describe('WEB_CONCURRENCY=2', () => {
  it('starts two workers, then says "listening" once, with the base URL', async () => {
    await eventually(() => linesOf(server).filter((l) => l.msg === 'worker listening').length === 2, 'two workers');
    const workers = linesOf(server).filter((l) => l.msg === 'worker listening');
    expect(new Set(workers.map((l) => l.pid)).size).toBe(2);
    expect(new Set(workers.map((l) => l.worker)).size).toBe(2);
    expect(linesOf(server).filter((l) => l.msg === 'listening')).toHaveLength(1);
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('spreads connections over both workers, and counts one rate limit across them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 36; i++) statuses.push(await getOnNewConnection(`${server.baseUrl}/me`, organization.key));
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    await eventually(() => linesOf(server).filter((l) => l.msg === 'request').length >= 36, 'request logs');
    const served = linesOf(server).filter((l) => l.msg === 'request' && l.status === 200);
    expect(new Set(served.map((l) => l.worker)).size).toBe(2);
  });

  it('replaces a worker that dies', async () => {
    const before = linesOf(server).filter((l) => l.msg === 'worker listening');
    const victim = before[0]?.pid;
    if (!victim) throw new Error('no worker');
    process.kill(victim, 'SIGKILL');
    await eventually(() => linesOf(server).filter((l) => l.msg === 'worker listening').length === 3, 'a new worker');
    const replacement = linesOf(server).filter((l) => l.msg === 'worker listening')[2];
    expect(replacement?.pid).not.toBe(victim);
    // Every request is answered (the key is over its limit by now: 429 is an answer from a live worker).
    for (let i = 0; i < 6; i++) expect(await getOnNewConnection(`${server.baseUrl}/me`, organization.key)).toBe(429);
  });

  it('stops every process on SIGTERM, exit code 0', async () => {
    const pids = linesOf(server)
      .filter((l) => l.msg === 'worker listening')
      .map((l) => l.pid ?? 0);
    expect(await stop(server, 'SIGTERM')).toBe(0);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});

describe('WEB_CONCURRENCY=2 when its port is taken', () => {
  it('says so in one line naming PORT and exits 1, before migrating or forking', async () => {
    const blocker = createHttpServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as AddressInfo;
    try {
      const failed = await runToEnd(['start'], { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '2', PORT: String(port) });
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr.trim().split('\n')).toEqual([
        `coinventory-server: Port ${port} is already in use (PORT=${port}, HOST=127.0.0.1). Stop what uses it, or set PORT.`,
      ]);
      expect(failed.stdout).not.toContain('worker');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('WEB_CONCURRENCY=2 shutting down', () => {
  it('finishes a request in flight when SIGTERM comes, then exits 0', async () => {
    const running = await start({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '2' });
    const key = (await createTestOrganization(sql)).key;
    const body = JSON.stringify({ sku: `DRAIN-${randomBytes(4).toString('hex')}`, title: 'In flight at SIGTERM' });
    // The request is sent in two parts, SIGTERM between them: a worker is holding it open when the signal comes.
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(`${running.baseUrl}/items`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        running.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 300);
    });
    const exited = once(running.child, 'exit');
    expect(await answered, running.stdout()).toBe(200);
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }, running.stdout()).toEqual({ code: 0, signal: null });
  });

  // What Ctrl-C in a terminal and systemd's default KillMode=control-group do: the signal reaches the primary and
  // each worker, and the primary passes it on to the workers as well.
  it('exits 0 when SIGTERM reaches every process at once', async () => {
    const group = await start({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '2' });
    await eventually(() => linesOf(group).filter((l) => l.msg === 'worker listening').length === 2, 'two workers');
    const workers = linesOf(group)
      .filter((l) => l.msg === 'worker listening')
      .map((l) => l.pid ?? 0);
    const exited = once(group.child, 'exit');
    for (const pid of [group.child.pid ?? 0, ...workers]) process.kill(pid, 'SIGTERM');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }, group.stdout()).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on SIGTERM during start-up, as soon as the first worker listens', async () => {
    const child = run(['start'], { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '2' });
    let stdout = '';
    const firstWorker = new Promise<void>((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('"worker listening"')) resolve();
      });
    });
    // 'close', not 'exit': the workers' last lines are read too, so a failure shows them.
    const closed = once(child, 'close');
    await firstWorker;
    child.kill('SIGTERM');
    const [code, signal] = (await closed) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }, stdout).toEqual({ code: 0, signal: null });
  });
});
