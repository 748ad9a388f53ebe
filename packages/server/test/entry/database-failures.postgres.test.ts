import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '@coinventory/test-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import { failureReport } from '../../src/entry/failure.js';
import { type CommandResult, createClusterDatabase, EXIT } from '../support/admin.js';
import { removeTempDirs, runToEnd, tempDir } from '../support/binary.js';

/**
 * The failures an operator meets before anything runs on PostgreSQL, through the built binary, for an operator command
 * and for `start`: each one line, `coinventory-server: <what went wrong>; <what to do>`, exit 6, no stack trace, and
 * never the URL's password. The roles, databases and the pg_hba.conf line they need are made here, on the test
 * cluster, and removed after.
 */

const suffix = randomBytes(4).toString('hex');
const PASSWORD = `pw-secret-${suffix}`;
const role = (name: string) => `${name}_${suffix}`;

/** One line on stderr, exactly this, exit 6, and nothing that reveals the password or a stack. */
function expectUnavailable(result: CommandResult, line: string): void {
  const shown = `exit ${result.code}\n${result.stdout}\n${result.stderr}`;
  expect(result.code, shown).toBe(EXIT.unavailable);
  expect(result.stderr, shown).toBe(`coinventory-server: ${line}\n`);
  expect(result.stdout, shown).not.toContain(PASSWORD);
}

/** Runs `work` on a connection of its own to `url`, closed after. */
async function inDatabase<T>(url: string, work: (sql: ReturnType<typeof createSql>) => Promise<T>): Promise<T> {
  const sql = createSql(url, { max: 1, statementTimeoutMs: 0 });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

describe('PostgreSQL failures, in one line each', () => {
  const clusterUrl = inject('postgresUrl');
  const cluster = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  // host:port, as the messages name it.
  const { host: address } = new URL(clusterUrl);
  let empty: { url: string; drop(): Promise<void> } | undefined;
  let hbaFile = '';
  let hba = '';
  const env = { COINVENTORY_DATA_DIR: tempDir() };
  /** A URL to the test cluster as `user` (with the password), on `database`. */
  const urlOf = (user: string, database: string, password = PASSWORD) =>
    `postgres://${user}:${password}@${address}/${database}`;
  const command = (url: string, ...args: string[]) => runToEnd(args, { ...env, DATABASE_URL: url });

  beforeAll(async () => {
    await cluster.unsafe(`CREATE ROLE ${role('pw')} LOGIN PASSWORD '${PASSWORD}'`);
    await cluster.unsafe(`CREATE ROLE ${role('nologin')} NOLOGIN`);
    await cluster.unsafe(`CREATE ROLE ${role('reader')} LOGIN`);
    await cluster.unsafe(`CREATE DATABASE ${role('locked')}`);
    await cluster.unsafe(`REVOKE CONNECT ON DATABASE ${role('locked')} FROM PUBLIC`);
    empty = await createClusterDatabase(clusterUrl);
    // PostgreSQL 15 and later refuse CREATE on public to all but the owner already; earlier ones are made to.
    await inDatabase(empty.url, (sql) => sql`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    // The cluster trusts every login; its password role alone must give one (first matching line wins).
    const [row] = await cluster<{ hba_file: string }[]>`SHOW hba_file`;
    hbaFile = row?.hba_file ?? '';
    hba = readFileSync(hbaFile, 'utf8');
    writeFileSync(hbaFile, `host all ${role('pw')} 127.0.0.1/32 scram-sha-256\n${hba}`);
    await cluster`SELECT pg_reload_conf()`;
    // The reload is a signal: wait until the line is in force.
    for (let tries = 0; tries < 50; tries++) {
      const login = await command(urlOf(role('pw'), 'postgres', 'wrong'), 'org', 'list');
      if (login.stderr.includes('(28P01)')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    if (hbaFile) {
      writeFileSync(hbaFile, hba);
      await cluster`SELECT pg_reload_conf()`;
    }
    await empty?.drop();
    await cluster.unsafe(`DROP DATABASE IF EXISTS ${role('locked')}`);
    for (const name of ['pw', 'nologin', 'reader']) await cluster.unsafe(`DROP ROLE IF EXISTS ${role(name)}`);
    await cluster.end();
    removeTempDirs();
  });

  it('connection refused and host not found, for an operator command, start and sync-worker', async () => {
    const closed = await freePort();
    const refused = `cannot reach PostgreSQL at 127.0.0.1:${closed} (connection refused); is it running, on that port? check the host and port in DATABASE_URL`;
    const closedUrl = `postgres://app:${PASSWORD}@127.0.0.1:${closed}/coinventory`;
    const [command1, start, worker, nowhere] = await Promise.all([
      command(closedUrl, 'org', 'list'),
      command(closedUrl, 'start'),
      command(closedUrl, 'sync-worker'),
      command(`postgres://app:${PASSWORD}@db.invalid:5432/coinventory`, 'org', 'list'),
    ]);
    expectUnavailable(command1, refused);
    expectUnavailable(start, refused);
    expectUnavailable(worker, refused);
    expect(nowhere.code).toBe(EXIT.unavailable);
    expect(nowhere.stderr).toMatch(
      /^coinventory-server: cannot reach PostgreSQL at db\.invalid:5432 \((host not found|host name lookup failed)\); check the host name in DATABASE_URL(, and the DNS)?\n$/,
    );
    expect(nowhere.stderr).not.toContain(PASSWORD);
  });

  it('a wrong password (28P01), at start too, without printing the password', async () => {
    const url = urlOf(role('pw'), 'postgres', `not-${PASSWORD}`);
    const line = `PostgreSQL at ${address} refused the password of user "${role('pw')}" (28P01); check the user and password in DATABASE_URL`;
    const [command1, start] = await Promise.all([command(url, 'key', 'list', '--org', 'x'), command(url, 'start')]);
    expectUnavailable(command1, line);
    expectUnavailable(start, line);
    expect(command1.stderr).not.toContain(`not-${PASSWORD}`);
  });

  it('a missing database (3D000), a missing role, a role that may not log in (28000), no CONNECT (42501)', async () => {
    const [missing, missingAtStart, ghost, nologin, locked] = await Promise.all([
      command(urlOf('postgres', `nowhere_${suffix}`), 'org', 'list'),
      command(urlOf('postgres', `nowhere_${suffix}`), 'start'),
      command(urlOf(role('ghost'), 'postgres'), 'org', 'list'),
      command(urlOf(role('nologin'), 'postgres'), 'org', 'list'),
      command(urlOf(role('reader'), role('locked')), 'org', 'list'),
    ]);
    const noDatabase = `PostgreSQL at ${address} has no database "nowhere_${suffix}" (3D000); create it (createdb nowhere_${suffix}) or fix the database name in DATABASE_URL`;
    expectUnavailable(missing, noDatabase);
    expectUnavailable(missingAtStart, noDatabase);
    expectUnavailable(
      ghost,
      `PostgreSQL at ${address} refused the login: role "${role('ghost')}" does not exist (28000); create the role (CREATE ROLE "${role('ghost')}" LOGIN PASSWORD '…') or fix the user in DATABASE_URL`,
    );
    expectUnavailable(
      nologin,
      `PostgreSQL at ${address} refused the login: role "${role('nologin')}" is not permitted to log in (28000); allow it (ALTER ROLE "${role('nologin')}" LOGIN) or use another user in DATABASE_URL`,
    );
    expectUnavailable(
      locked,
      `PostgreSQL at ${address}: permission denied for database "${role('locked')}" (42501); grant it (GRANT CONNECT ON DATABASE "${role('locked')}" TO "${role('reader')}") or use another user in DATABASE_URL`,
    );
  });

  it('migrations not applied; a user that may not create the tables; DATABASE_DIRECT_URL named when it is the one', async () => {
    const database = new URL(empty?.url ?? '').pathname.slice(1);
    const [notMigrated, cannotMigrate, direct] = await Promise.all([
      command(urlOf('postgres', database), 'org', 'list'),
      command(urlOf(role('reader'), database), 'migrate'),
      runToEnd(['migrate'], {
        ...env,
        DATABASE_URL: urlOf('postgres', database),
        DATABASE_DIRECT_URL: `postgres://app:${PASSWORD}@127.0.0.1:${await freePort()}/${database}`,
      }),
    ]);
    expectUnavailable(
      notMigrated,
      `database "${database}" at ${address} has no Coinventory tables (migrations not applied); run "coinventory-server migrate" with the same settings, or start the server once`,
    );
    expectUnavailable(
      cannotMigrate,
      `PostgreSQL at ${address}: permission denied for schema public (42501); the server's user must own its database and tables (ALTER DATABASE "${database}" OWNER TO "${role('reader')}", on a new database), or use that owner in DATABASE_URL`,
    );
    expect(direct.code).toBe(EXIT.unavailable);
    expect(direct.stderr).toMatch(
      /^coinventory-server: cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(connection refused\); .* in DATABASE_DIRECT_URL\n$/,
    );
    // The refusal wrote nothing: the database is as empty as it was.
    const tables = await inDatabase(
      empty?.url ?? '',
      (sql) => sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`,
    );
    expect(tables).toEqual([{ n: 0 }]);
  });

  it('an unexpected error keeps its stack trace, exit 1, and the password is blanked out of it', () => {
    const url = `postgres://app:${PASSWORD}@db.example:5432/coinventory`;
    const report = failureReport(new Error(`boom while talking to ${url}`), { DATABASE_URL: url });
    expect(report.exitCode).toBe(EXIT.failure);
    expect(report.text).toMatch(
      /^coinventory-server: unexpected error \(a bug: please report it with what follows\)\nError: boom/,
    );
    expect(report.text).toContain('postgres://app:***@db.example:5432');
    expect(report.text).toContain('    at ');
    expect(report.text).not.toContain(PASSWORD);
  });
});
