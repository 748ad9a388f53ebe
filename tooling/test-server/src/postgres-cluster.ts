import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster from this machine's server binaries: initdb in a temporary directory, started on a
 * free loopback port, stopped and removed by stop(). The server's tests run against one, and so does the
 * benchmark (bench/), each with its own settings. PostgreSQL refuses to run as root, so as root the cluster runs as
 * the `postgres` user, who is handed the directory.
 */

/** The newest PostgreSQL server binaries on this machine (PG_BIN overrides), or null. */
export function findPostgresBin(): string | null {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** A TCP port nothing listens on at the moment, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function runAs(user: string | null, command: string, args: string[]): string {
  const [file, argv] = user ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** Durability is pointless for a cluster a test run throws away; without it the tests run faster. */
export const THROWAWAY_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '200',
});

export interface ClusterOptions {
  /** postgresql.conf settings, passed as `-c name=value` (listen_addresses, port and the socket directory are set). */
  settings?: Readonly<Record<string, string>>;
  /** The temporary directory's name prefix. */
  prefix?: string;
}

export interface PostgresCluster {
  /** postgres:// URL of the `postgres` database as the `postgres` superuser (trust authentication). */
  url: string;
  host: string;
  port: number;
  /** The cluster's directory: `data` (the data directory), the Unix socket and `server.log`. */
  dir: string;
  dataDir: string;
  /** `postgres --version`. */
  version: string;
  bin: string;
  /** Stops the cluster (fast shutdown) and removes its directory; a second call does nothing. */
  stop(): void;
}

/**
 * Runs `stop` if the process is interrupted (SIGINT, SIGTERM, SIGHUP) or exits before the returned function is
 * called. A run that is interrupted (Ctrl-C, or turbo ending the task when another fails) never reaches its
 * teardown, so what a test started is stopped on the signal or at exit. Put first: vitest's own handlers exit the
 * process at once. With no other handler, the signal is raised again so the process ends as it would have; handlers
 * registered later run earlier (a server stopped before its cluster).
 */
export function stopOnInterrupt(stop: () => void): () => void {
  const listeners = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const listener = () => {
      stop();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.prependOnceListener(signal, listener);
    return [signal, listener] as const;
  });
  process.prependOnceListener('exit', stop);
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
    process.off('exit', stop);
  };
}

export async function startCluster(bin: string, options: ClusterOptions = {}): Promise<PostgresCluster> {
  const isRoot = process.getuid?.() === 0;
  const user = isRoot ? 'postgres' : null;
  const dir = mkdtempSync(join(tmpdir(), options.prefix ?? 'coinventory-pg-'));
  const dataDir = join(dir, 'data');
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  // -N: initdb's own fsync is wasted on a directory removed at the end.
  const initdb = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '-N'];
  runAs(user, join(bin, 'initdb'), initdb);
  const port = await freePort();
  const settings = {
    ...options.settings,
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
  };
  const flags = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  runAs(user, join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-o',
    flags,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  const version = runAs(user, join(bin, 'postgres'), ['--version']).trim();
  let forget = () => {};
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    forget();
    try {
      runAs(user, join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  forget = stopOnInterrupt(stop);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    dir,
    dataDir,
    version,
    bin,
    stop,
  };
}
