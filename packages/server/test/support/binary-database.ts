import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connectDatabase, createSql } from '../../src/db/connect.js';
import type { Sql } from '../../src/db/types.js';
import { fromStderr, type Running, start, stop, tempDir } from './binary.js';
import { createTestOrganization } from './organization.js';

/**
 * The built server binary on the test run's database, for suites that kill and restart it: on the embedded
 * database, a data directory of its own (and the demo organization's key, printed at the first start); on
 * PostgreSQL, a fresh database on the test cluster (and an organization made as the settings area would). `open`
 * reaches the database the way each allows: PostgreSQL at any time, the embedded one only while no server holds it.
 */
export interface BinaryDatabase {
  /** The environment every start of the server takes (the extra variables given included). */
  env: Record<string, string>;
  /** A read/write key of an organization on it. */
  key: string;
  /** The first start, already running. */
  first: Running;
  /** Runs `work` on a connection to the database, closed after it. */
  open<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Drops what was made for the suite (the PostgreSQL database); stop every server first. */
  drop(): Promise<void>;
}

export async function startOnOwnDatabase(extra: Record<string, string> = {}): Promise<BinaryDatabase> {
  const dataDir = tempDir();
  const clusterUrl = inject('postgresUrl');
  if (!clusterUrl) {
    const env = { COINVENTORY_DATA_DIR: dataDir, ...extra };
    const first = await start(env);
    const key = (await fromStderr(first, /(cvk_live_[0-9A-Za-z]{38})/))?.[1];
    if (!key) throw new Error(`no demo key printed:\n${first.stderr()}`);
    return {
      env,
      key,
      first,
      open: async (work) => {
        const database = await connectDatabase({ dataDir, poolSize: 1, statementTimeoutMs: 0 });
        try {
          return await work(database.sql);
        } finally {
          await database.close();
        }
      },
      drop: async () => {},
    };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const cluster = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  await cluster`CREATE DATABASE ${cluster(name)}`;
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  const env = { COINVENTORY_DATA_DIR: dataDir, DATABASE_URL: url.toString(), ...extra };
  const open = async <T>(work: (sql: Sql) => Promise<T>): Promise<T> => {
    const sql = createSql(url.toString(), { max: 1, statementTimeoutMs: 0 });
    try {
      return await work(sql);
    } finally {
      await sql.end();
    }
  };
  const drop = async () => {
    await cluster`DROP DATABASE IF EXISTS ${cluster(name)} WITH (FORCE)`;
    await cluster.end();
  };
  let first: Running | undefined;
  try {
    // The server migrates the database as it starts; the organization is made after.
    first = await start(env);
    const { key } = await open((sql) => createTestOrganization(sql));
    return { env, key, first, open, drop };
  } catch (error) {
    if (first) await stop(first, 'SIGKILL');
    await drop();
    throw error;
  }
}
