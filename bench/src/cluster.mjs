import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findPostgresBin as newestPostgresBin, startCluster as startThrowawayCluster } from '@coinventory/test-server';

/** The benchmark's figures are PostgreSQL 15's: its binaries when the machine has them (PG_BIN still decides). */
export function findPostgresBin() {
  const fifteen = '/usr/lib/postgresql/15/bin';
  if (!process.env.PG_BIN && existsSync(join(fifteen, 'initdb'))) return fifteen;
  return newestPostgresBin();
}

/**
 * The tuning, stated once: modest settings a small dedicated database host would get, not benchmark tricks.
 * Durability stays on (fsync, synchronous_commit, full_page_writes): every write the API acknowledges waits for
 * its WAL flush, as in production. (The rate limiter's tables are unlogged, so counting a read waits for none.)
 * @type {Readonly<Record<string, string>>}
 */
export const TUNING = Object.freeze({
  shared_buffers: '2GB',
  effective_cache_size: '12GB',
  work_mem: '16MB',
  maintenance_work_mem: '1GB',
  max_connections: '200',
  random_page_cost: '1.1',
  effective_io_concurrency: '200',
  // A standalone host without replicas: minimal WAL lets the bulk load and index builds skip most WAL writes.
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_wal_size: '16GB',
  checkpoint_timeout: '30min',
  // JIT compilation costs tens of milliseconds on the first expensive query of a session: an OLTP host turns it off.
  jit: 'off',
  // Two cores shared with the server and the load generator: parallel query would only add contention.
  max_parallel_workers_per_gather: '0',
  max_parallel_maintenance_workers: '1',
});

/** Settings that are not tuning: how statements are logged for the capture run. */
const PLUMBING = {
  logging_collector: 'on',
  log_destination: 'csvlog',
  log_directory: 'log',
  log_filename: 'postgresql',
  log_rotation_age: '0',
  log_rotation_size: '0',
};

/**
 * @typedef {import('@coinventory/test-server').PostgresCluster & { csvLog: string }} Cluster
 */

/**
 * Creates and starts the benchmark's own cluster: the server's throwaway cluster (the one its tests use) with TUNING,
 * logging statements as CSV (the capture run switches them on); the caller stops and removes it.
 * @param {string} bin
 * @returns {Promise<Cluster>}
 */
export async function startCluster(bin) {
  const cluster = await startThrowawayCluster(bin, {
    settings: { ...TUNING, ...PLUMBING },
    prefix: 'coinventory-bench-pg-',
  });
  return { ...cluster, csvLog: join(cluster.dataDir, 'log', 'postgresql.csv') };
}
