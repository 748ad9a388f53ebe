import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from '../../src/env.js';
import { removeTempDirs, runToEnd, tempDir } from '../support/binary.js';

/** WEB_CONCURRENCY: how many server processes share the port (cluster.ts); see cluster.postgres.test.ts for them running. */

afterAll(removeTempDirs);

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

describe('WEB_CONCURRENCY', () => {
  it('is 1 by default, on either database', () => {
    expect(loadEnv({}).WEB_CONCURRENCY).toBe(1);
    expect(loadEnv({ DATABASE_URL }).WEB_CONCURRENCY).toBe(1);
  });

  it('takes several processes on DATABASE_URL', () => {
    expect(loadEnv({ DATABASE_URL, WEB_CONCURRENCY: '2' }).WEB_CONCURRENCY).toBe(2);
    expect(loadEnv({ DATABASE_URL, WEB_CONCURRENCY: '64' }).WEB_CONCURRENCY).toBe(64);
  });

  it('refuses more than one on the embedded database, naming the variable and the way out', () => {
    expect(() => loadEnv({ WEB_CONCURRENCY: '2' })).toThrow(ConfigError);
    expect(() => loadEnv({ WEB_CONCURRENCY: '2' })).toThrow(
      /WEB_CONCURRENCY: must be 1 on the embedded database.*DATABASE_URL/,
    );
    expect(loadEnv({ WEB_CONCURRENCY: '1' }).WEB_CONCURRENCY).toBe(1);
  });

  it.each(['0', '65', '1.5', 'two', '-1'])('refuses %s', (value) => {
    expect(() => loadEnv({ DATABASE_URL, WEB_CONCURRENCY: value })).toThrow(/WEB_CONCURRENCY/);
  });

  it('stops the server binary before it touches the embedded database (exit 2, the variable named)', async () => {
    const dataDir = tempDir();
    const result = await runToEnd(['start'], { COINVENTORY_DATA_DIR: dataDir, WEB_CONCURRENCY: '2' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('WEB_CONCURRENCY');
    expect(result.stderr).toContain('DATABASE_URL');
    expect(result.stdout).not.toContain('listening');
  });
});
