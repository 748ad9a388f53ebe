import { resolve, sep } from 'node:path';

/**
 * The database could not be used, for a reason the operator can fix: PostgreSQL unreachable or refusing the login,
 * the database or role missing, no permission, the schema not migrated; the embedded database's directory in use or
 * not writable. The message is one line, `<what went wrong>; <what to do>`, and never holds the URL's password.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** A PostgreSQL URL and the setting it came from, to name in a message. */
export interface DatabaseTarget {
  setting: 'DATABASE_URL' | 'DATABASE_DIRECT_URL';
  url: string;
}

/** Where a URL points, without its password: `db.example.com:5432`, the database and the user. */
export function describeTarget({ url }: DatabaseTarget): { address: string; database: string; user: string } {
  try {
    const parsed = new URL(url);
    const socket = parsed.searchParams.get('host');
    const host = parsed.hostname || socket || 'localhost';
    const port = parsed.port || parsed.searchParams.get('port') || '5432';
    const user = decodeURIComponent(parsed.username) || process.env.PGUSER || process.env.USER || 'postgres';
    const database = decodeURIComponent(parsed.pathname.slice(1)) || user;
    return { address: host.startsWith('/') ? host : `${host}:${port}`, database, user };
  } catch {
    return { address: 'the configured address', database: 'the configured database', user: 'the configured user' };
  }
}

/** Node's and postgres.js's codes for a connection that did not get to PostgreSQL: what happened, and what to check. */
const UNREACHABLE: Readonly<Record<string, readonly [string, (setting: string) => string]>> = {
  ECONNREFUSED: ['connection refused', (s) => `is it running, on that port? check the host and port in ${s}`],
  ENOTFOUND: ['host not found', (s) => `check the host name in ${s}`],
  EAI_AGAIN: ['host name lookup failed', (s) => `check the host name in ${s}, and the DNS`],
  EHOSTUNREACH: ['host unreachable', (s) => `check the host in ${s}, and the network`],
  ENETUNREACH: ['network unreachable', (s) => `check the host in ${s}, and the network`],
  ETIMEDOUT: ['timed out', (s) => `check the host and port in ${s}, and that no firewall drops the connection`],
  CONNECT_TIMEOUT: [
    'no answer in time',
    (s) => `check the host and port in ${s}, and that no firewall drops the connection`,
  ],
  ECONNRESET: ['connection reset', (s) => `is PostgreSQL what listens there? check the port and sslmode in ${s}`],
  CONNECTION_CLOSED: [
    'connection closed',
    (s) => `is PostgreSQL what listens there? check the port and sslmode in ${s}`,
  ],
  ENOENT: ['no such socket', (s) => `is it running? check the socket directory (host) in ${s}`],
};

/** What to do about a login PostgreSQL refused (28000), by its reason. */
function loginFix(message: string, { user, database }: ReturnType<typeof describeTarget>, setting: string): string {
  if (/does not exist/.test(message))
    return `create the role (CREATE ROLE "${user}" LOGIN PASSWORD '…') or fix the user in ${setting}`;
  if (/not permitted to log in/.test(message))
    return `allow it (ALTER ROLE "${user}" LOGIN) or use another user in ${setting}`;
  if (/pg_hba/.test(message))
    return `allow this host, user "${user}" and database "${database}" in the server's pg_hba.conf, or check sslmode in ${setting}`;
  return `check the user in ${setting}, and the server's pg_hba.conf`;
}

/** What to do about a privilege PostgreSQL refused (42501): CONNECT on the database, or owning its tables. */
function permissionFix(
  message: string,
  { user, database }: ReturnType<typeof describeTarget>,
  setting: string,
): string {
  if (/for database/.test(message))
    return `grant it (GRANT CONNECT ON DATABASE "${database}" TO "${user}") or use another user in ${setting}`;
  return `the server's user must own its database and tables (ALTER DATABASE "${database}" OWNER TO "${user}", on a new database), or use that owner in ${setting}`;
}

/** PostgreSQL's SQLSTATEs for a login or a statement refused for a reason of the deployment, and what to do. */
function refusal(code: string, message: string, where: ReturnType<typeof describeTarget>, setting: string) {
  const at = `PostgreSQL at ${where.address}`;
  switch (code) {
    case '28P01':
      return `${at} refused the password of user "${where.user}" (28P01); check the user and password in ${setting}`;
    case '28000':
      return `${at} refused the login: ${message} (28000); ${loginFix(message, where, setting)}`;
    case '3D000':
      return `${at} has no database "${where.database}" (3D000); create it (createdb ${where.database}) or fix the database name in ${setting}`;
    case '42501':
      return `${at}: ${message} (42501); ${permissionFix(message, where, setting)}`;
    case '57P03':
      return `${at} is not accepting connections: ${message} (57P03); wait for it to finish starting, then try again`;
    case '53300':
      return `${at} has no connection left: ${message} (53300); lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise its max_connections`;
    default:
      return undefined;
  }
}

/**
 * The one-line explanation of a failure to reach or use PostgreSQL at `target`, or undefined for an error that is
 * not one of these (a bug, which keeps its stack trace).
 */
export function explainDatabaseFailure(error: unknown, target: DatabaseTarget): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error;
  if (!(error instanceof Error)) return undefined;
  const where = describeTarget(target);
  const code = (error as NodeJS.ErrnoException).code ?? '';
  // postgres.js's PostgresError, by name: this module is read by the binary's entry, which loads no driver up front.
  if (error.name === 'PostgresError') {
    const message = refusal(code, error.message, where, target.setting);
    return message ? new DatabaseUnavailableError(message) : undefined;
  }
  // ENOENT is a Unix socket's only from connect(); from elsewhere it is a file's, not the database's.
  const unreachable =
    code === 'ENOENT' && (error as NodeJS.ErrnoException).syscall !== 'connect' ? undefined : UNREACHABLE[code];
  if (unreachable) {
    const [what, fix] = unreachable;
    return new DatabaseUnavailableError(
      `cannot reach PostgreSQL at ${where.address} (${what}); ${fix(target.setting)}`,
    );
  }
  if (/certificate|SSL|TLS/i.test(error.message) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    return new DatabaseUnavailableError(
      `cannot open a TLS connection to PostgreSQL at ${where.address} (${error.message}); check sslmode in ${target.setting} and the server's certificate`,
    );
  }
  return undefined;
}

/** Runs `work`, turning a failure to reach or use PostgreSQL at `target` into a DatabaseUnavailableError. */
export async function explainingFailures<T>(target: DatabaseTarget, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw explainDatabaseFailure(error, target) ?? error;
  }
}

/** DATABASE_URL, the pool's. */
export const poolTarget = (url: string): DatabaseTarget => ({ setting: 'DATABASE_URL', url });

/** What migrations run over: DATABASE_DIRECT_URL when set (past the pooler), else DATABASE_URL. */
export const migrationTarget = (url: string, directUrl: string | undefined): DatabaseTarget =>
  directUrl ? { setting: 'DATABASE_DIRECT_URL', url: directUrl } : poolTarget(url);

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/** A file system error on the embedded database's directory (or a parent of it) as a one-line explanation. */
export function explainDataDirFailure(error: unknown, dataDir: string): DatabaseUnavailableError | undefined {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  const problem = code ? FILE_PROBLEMS[code] : undefined;
  if (!problem || !path) return undefined;
  const dir = resolve(dataDir);
  const failed = resolve(path);
  if (!(failed === dir || dir.startsWith(`${failed}${sep}`) || failed.startsWith(`${dir}${sep}`))) return undefined;
  return new DatabaseUnavailableError(
    `cannot write the embedded database's directory ${dir} (${problem}: ${failed}); set COINVENTORY_DATA_DIR to a directory this user can write, or fix that one's permissions`,
  );
}
