import { join } from 'node:path';
import { findPostgresBin, type PostgresCluster, runAs, startCluster } from '@coinventory/test-server';

export { stopOnInterrupt } from '@coinventory/test-server';

/**
 * A throwaway PostgreSQL cluster that a test may crash: `crash()` is `pg_ctl stop -m immediate` (every process ends at
 * once, no shutdown checkpoint: what a killed postmaster leaves), `recover()` starts it again on the same port, which
 * runs crash recovery. It is started and removed as every test cluster is (startCluster: initdb in a temporary
 * directory, run as the `postgres` user when the tests run as root, stopped on a signal or at exit).
 */

/**
 * Fast, yet as durable as a crash of PostgreSQL (not of the machine) needs. synchronous_commit must stay on: off, a
 * commit is acknowledged before its WAL leaves shared memory, which an immediate stop throws away. fsync and
 * full_page_writes only guard against the operating system losing what PostgreSQL wrote; here it keeps running.
 */
export const CRASH_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  fsync: 'off',
  full_page_writes: 'off',
  synchronous_commit: 'on',
  max_connections: '50',
});

export interface CrashableCluster extends PostgresCluster {
  /** `pg_ctl stop -m immediate`: PostgreSQL's processes are ended without a checkpoint. */
  crash(): void;
  /** `pg_ctl start` with the cluster's settings, once it accepts connections again (crash recovery done). */
  recover(): void;
  /** Stops the cluster and removes its directory, as PostgresCluster's; also after a crash() not recovered. */
  stop(): void;
}

export async function startCrashableCluster(
  settings: Readonly<Record<string, string>> = CRASH_SETTINGS,
): Promise<CrashableCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (set PG_BIN)');
  const cluster = await startCluster(bin, { settings, prefix: 'coinventory-crash-' });
  // As startCluster runs pg_ctl: PostgreSQL refuses to run as root.
  const user = process.getuid?.() === 0 ? 'postgres' : null;
  const pgCtl = (args: string[]) => runAs(user, join(bin, 'pg_ctl'), args);
  // pg_ctl start does not reuse the options of the last start, so they are given again as startCluster gave them.
  const flags = Object.entries({
    ...settings,
    listen_addresses: cluster.host,
    port: String(cluster.port),
    unix_socket_directories: cluster.dir,
  })
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  let down = false;
  return {
    ...cluster,
    crash: () => {
      down = true;
      pgCtl(['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']);
    },
    recover: () => {
      pgCtl(['-D', cluster.dataDir, '-o', flags, '-l', join(cluster.dir, 'server.log'), '-w', '-t', '60', 'start']);
      down = false;
    },
    // Between crash() and recover() there is nothing to stop: pg_ctl's refusal to stop it is no failure.
    stop: () => {
      try {
        cluster.stop();
      } catch (error) {
        if (!down) throw error;
      }
    },
  };
}
