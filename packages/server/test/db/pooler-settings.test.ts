import { describe, expect, it } from 'vitest';
import { databaseOptions } from '../../src/db/connect.js';
import { ConfigError, loadEnv } from '../../src/env.js';

const DATABASE_URL = 'postgres://coinventory@pgbouncer.internal:6432/coinventory';
const DATABASE_DIRECT_URL = 'postgres://coinventory@db.internal:5432/coinventory';

describe('DATABASE_POOLER and DATABASE_DIRECT_URL', () => {
  it('default to no pooler and no direct URL', () => {
    const env = loadEnv({ DATABASE_URL });
    expect(env.DATABASE_POOLER).toBe('none');
    expect(env.DATABASE_DIRECT_URL).toBeUndefined();
  });

  it('are taken together with DATABASE_URL, and passed to the pool', () => {
    const env = loadEnv({ DATABASE_URL, DATABASE_DIRECT_URL, DATABASE_POOLER: 'transaction' });
    expect(databaseOptions(env, { poolSize: 7, statementTimeoutMs: 5000 })).toEqual({
      url: DATABASE_URL,
      directUrl: DATABASE_DIRECT_URL,
      pooler: 'transaction',
      dataDir: '.coinventory/data',
      poolSize: 7,
      statementTimeoutMs: 5000,
    });
  });

  it('refuse a direct URL without DATABASE_URL, naming what it is for', () => {
    expect(() => loadEnv({ DATABASE_DIRECT_URL })).toThrow(ConfigError);
    expect(() => loadEnv({ DATABASE_DIRECT_URL })).toThrow(/DATABASE_DIRECT_URL: needs DATABASE_URL/);
  });

  it('refuse a pooler on the embedded database', () => {
    expect(() => loadEnv({ DATABASE_POOLER: 'transaction' })).toThrow(/DATABASE_POOLER: needs DATABASE_URL/);
    expect(loadEnv({ DATABASE_POOLER: 'none' }).DATABASE_POOLER).toBe('none');
  });

  it('refuse a pool mode the server does not know, and a direct URL that is not PostgreSQL', () => {
    expect(() => loadEnv({ DATABASE_URL, DATABASE_POOLER: 'session' })).toThrow(/DATABASE_POOLER/);
    expect(() => loadEnv({ DATABASE_URL, DATABASE_DIRECT_URL: 'mysql://db.internal/coinventory' })).toThrow(
      /DATABASE_DIRECT_URL: must start with postgres:\/\/ or postgresql:\/\//,
    );
  });
});
