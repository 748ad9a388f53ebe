import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@coinventory/test-server';

/**
 * PgBouncer in front of the test cluster, as operators run it: Debian's package (1.18, whose binary is in
 * /usr/sbin, which a non-root PATH may not list), in transaction pooling mode, on a free loopback port, with its
 * configuration in a temporary directory.
 */

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

/** The pgbouncer binary (PGBOUNCER_BIN overrides), or null. */
export function findPgbouncer(): string | null {
  const fromEnv = process.env.PGBOUNCER_BIN;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export interface PgbouncerOptions {
  /** Where PostgreSQL listens. */
  postgres: { host: string; port: number };
  /** Run on every new server connection (PgBouncer's connect_query), e.g. `SET statement_timeout = 10000`. */
  connectQuery?: string;
  /** Server connections per database and user: fewer than the clients, so that they take turns. */
  poolSize: number;
}

export interface Pgbouncer {
  port: number;
  /** The URL of `database` through PgBouncer, as the `postgres` user (trust authentication, as the cluster). */
  url(database: string): string;
  /** What it logged (stderr). */
  log(): string;
  /** Stops it (immediate shutdown) and removes its directory; a second call does nothing. */
  stop(): Promise<void>;
}

/**
 * The watchdog PgBouncer runs under: it prints PgBouncer's pid, then waits for its stdin to close, stops it and
 * removes its directory. The test process holds the other end, so PgBouncer goes whenever the test process goes, even
 * killed outright (SIGKILL runs no handler); stop() closes it on purpose.
 */
const WATCHDOG = `"$1" "$2/pgbouncer.ini" </dev/null &
pid=$!
echo "$pid"
read -r _ || true
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rm -rf "$2"`;

export async function startPgbouncer(bin: string, options: PgbouncerOptions): Promise<Pgbouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'coinventory-pgbouncer-'));
  const port = await freePort();
  const connectQuery = options.connectQuery ? ` connect_query='${options.connectQuery.replaceAll("'", "''")}'` : '';
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${options.postgres.host} port=${options.postgres.port}${connectQuery}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      // No Unix socket: its name holds only the port, and another PgBouncer on this machine might have it.
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      'max_client_conn = 200',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  // PgBouncer refuses to run as root, as PostgreSQL does: as root it runs as `postgres`, who is handed the directory.
  const ids = process.getuid?.() === 0 ? userIds('postgres') : undefined;
  if (ids) {
    chownSync(dir, ids.uid, ids.gid);
    for (const file of ['pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, file), ids.uid, ids.gid);
  }
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'pgbouncer-watchdog', bin, dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // A process group of its own: Ctrl-C reaches the test run's group, and would end the watchdog's shell (leaving
    // PgBouncer behind) before the test process has gone. The test process ending is what stops it.
    detached: true,
    ...(ids ?? {}),
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  let stopped = false;
  let pid: number | undefined;
  // A test process that ends without afterAll (an uncaught error, process.exit) stops it at once; the watchdog
  // covers the rest.
  const onExit = () => {
    if (pid !== undefined) killQuietly(pid);
  };
  process.once('exit', onExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.stdin?.end();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    pid = await readPid(child);
    await waitForListening(child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    log: () => log,
    stop,
  };
}

function userIds(user: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function killQuietly(pid: number) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

async function readPid(child: ChildProcess): Promise<number> {
  const [line] = (await once(child.stdout ?? child, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`pgbouncer watchdog printed no pid: ${line.toString()}`);
  return pid;
}

/** Until PgBouncer logs that it is up; fails with its log when it exits first or takes longer than 10 s. */
async function waitForListening(child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (/process up: PgBouncer/.test(log())) return;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`pgbouncer did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
