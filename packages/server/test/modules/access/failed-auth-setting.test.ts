import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../../src/db/connect.js';
import type { Sql } from '../../../src/db/types.js';
import { type RunningServer, startServer } from '../../../src/entry/server.js';
import { loadEnv } from '../../../src/env.js';
import { generateKey } from '../../../src/modules/access/index.js';
import { meFrom as me } from '../../support/http.js';

/**
 * AUTH_FAILURE_LIMIT, read at start: the same wiring into the app on either database, so this file runs on one of
 * them (vitest.config.ts). The limiter itself, on both, is in failed-auth.test.ts.
 */

describe('AUTH_FAILURE_LIMIT', () => {
  let admin: Sql | undefined;
  let databaseName: string | undefined;
  let dataDir: string | undefined;
  const running: RunningServer[] = [];

  /**
   * The server as `coinventory-server start` runs it, configured by these variables. The first start makes its
   * database; the next reopens it (the one before has closed), as a restart with new settings would.
   */
  async function start(variables: Record<string, string>): Promise<RunningServer> {
    const clusterUrl = inject('postgresUrl');
    const env: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', SYNC_WORKER: 'off', ...variables };
    if (clusterUrl) {
      admin ??= createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
      databaseName ??= `test_${randomBytes(6).toString('hex')}`;
      if (running.length === 0) await admin`CREATE DATABASE ${admin(databaseName)}`;
      const url = new URL(clusterUrl);
      url.pathname = `/${databaseName}`;
      env.DATABASE_URL = url.toString();
    } else {
      dataDir ??= mkdtempSync(join(tmpdir(), 'coinventory-failed-auth-'));
      env.COINVENTORY_DATA_DIR = dataDir;
    }
    const started = await startServer({ env: loadEnv(env), logger: pino({ level: 'silent' }) });
    running.push(started);
    return started;
  }

  afterAll(async () => {
    for (const server of running) await server.close();
    if (admin && databaseName) await admin`DROP DATABASE IF EXISTS ${admin(databaseName)} WITH (FORCE)`;
    await admin?.end({ timeout: 5 });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('defaults to 20 failed lookups per address', () => {
    expect(loadEnv({}).AUTH_FAILURE_LIMIT).toBe(20);
  });

  it('sets the budget of the server it starts; 0 turns the limiter off', async () => {
    const limited = await start({ AUTH_FAILURE_LIMIT: '3' });
    const limitedOrigin = limited.baseUrl.replace(/\/v1$/, '');
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push((await me(limitedOrigin, '127.0.0.1', generateKey())).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    await limited.close();

    const unlimited = await start({ AUTH_FAILURE_LIMIT: '0' });
    const unlimitedOrigin = unlimited.baseUrl.replace(/\/v1$/, '');
    for (let n = 0; n < 30; n++) expect((await me(unlimitedOrigin, '127.0.0.1', generateKey())).status).toBe(401);
  }, 60_000);
});
