import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLoopbackHost } from '../../src/entry/metrics-exposure.js';
import { createClusterDatabase } from '../support/admin.js';
import { type Running, removeTempDirs, start, stop, tempDir } from '../support/binary.js';

/**
 * `start` warns, once, when /metrics answers anyone who reaches a non-loopback HOST: METRICS=on (the default) without
 * METRICS_TOKEN. On PostgreSQL, where a start is quick; the check does not depend on the database.
 */
describe('the /metrics warning at start', () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  const running: Running[] = [];

  beforeAll(async () => {
    database = await createClusterDatabase(inject('postgresUrl'));
  });
  afterAll(async () => {
    await Promise.all(running.map((server) => stop(server)));
    await database?.drop();
    removeTempDirs();
  });

  const startWith = async (env: Record<string, string>) => {
    const server = await start({ DATABASE_URL: database?.url ?? '', COINVENTORY_DATA_DIR: tempDir(), ...env });
    running.push(server);
    return server
      .stdout()
      .split('\n')
      .filter((line) => line.includes('/metrics'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; host: string; fix: string });
  };

  it('is logged on 0.0.0.0 without METRICS_TOKEN, saying the three ways out; not with a token, on loopback, or off', async () => {
    const [open, withToken, loopback, off] = await Promise.all([
      startWith({ HOST: '0.0.0.0' }),
      startWith({ HOST: '0.0.0.0', METRICS_TOKEN: 'a-token-of-16-characters-or-more' }),
      startWith({ HOST: '127.0.0.1' }),
      startWith({ HOST: '0.0.0.0', METRICS: 'off' }),
    ]);
    expect(open).toEqual([
      expect.objectContaining({
        level: 40,
        host: '0.0.0.0',
        msg: '/metrics answers anyone who reaches 0.0.0.0 without a token: set METRICS_TOKEN, or METRICS=off, or listen on loopback',
      }),
    ]);
    expect(open[0]?.fix).toContain('METRICS_TOKEN');
    expect([withToken, loopback, off]).toEqual([[], [], []]);
  });

  it('loopback is 127.0.0.0/8, ::1 and localhost; anything else is not', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.internal', '128.0.0.1', '::ffff:10.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
