import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Workspaces the benchmark calls the API as, made with the server's own operator commands (the code path a real
 * workspace's settings area takes): an organization on the Business plan with its default warehouse and zone, its
 * owner, and a read/write key for that owner.
 */

/**
 * @typedef {object} Workspace
 * @property {string} id
 * @property {string} slug
 * @property {string} name
 * @property {string} defaultWarehouseId
 * @property {string} defaultZoneId
 * @property {string} key
 * @property {string} keyId
 * @property {string} ownerEmail
 */

/**
 * Where operator commands run: a PostgreSQL URL, or the embedded database's directory (through the operator socket of
 * the server running on it).
 * @typedef {string | { dataDir: string }} Database
 */

/**
 * Runs one operator command with --json and returns its parsed output.
 * @param {string} main  path to the server's dist/main.js
 * @param {Database} database
 * @param {string[]} args
 * @returns {Promise<unknown>}
 */
export async function operator(main, database, args) {
  const where = typeof database === 'string' ? { DATABASE_URL: database } : { COINVENTORY_DATA_DIR: database.dataDir };
  const { stdout } = await run(process.execPath, [main, ...args, '--json'], {
    env: { PATH: process.env.PATH ?? '', ...where, LOG_LEVEL: 'warn' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/**
 * @param {unknown} value
 * @param {string} field
 * @returns {string}
 */
function field(value, field) {
  const v = typeof value === 'object' && value !== null ? /** @type {Record<string, unknown>} */ (value)[field] : null;
  if (typeof v !== 'string') throw new Error(`operator command output has no "${field}": ${JSON.stringify(value)}`);
  return v;
}

/**
 * Creates one workspace with an owner and a read/write key.
 * @param {string} main
 * @param {Database} database
 * @param {{ slug: string, name: string }} spec
 * @returns {Promise<Workspace>}
 */
export async function createWorkspace(main, database, spec) {
  const email = `owner@${spec.slug}.example`;
  const [org] = await Promise.all([
    operator(main, database, ['org', 'create', '--name', spec.name, '--slug', spec.slug, '--plan', 'business']),
    operator(main, database, ['user', 'create', '--email', email, '--name', `Owner of ${spec.name}`]),
  ]);
  await operator(main, database, ['member', 'add', '--org', spec.slug, '--user', email, '--role', 'owner']);
  const key = await operator(main, database, [
    'key',
    'create',
    '--org',
    spec.slug,
    '--creator',
    email,
    '--name',
    'Benchmark inventory sync',
    '--scopes',
    'read,write',
  ]);
  return {
    id: field(org, 'id'),
    slug: spec.slug,
    name: spec.name,
    defaultWarehouseId: field(org, 'defaultWarehouseId'),
    defaultZoneId: field(org, 'defaultZoneId'),
    key: field(key, 'key'),
    keyId: field(key, 'id'),
    ownerEmail: email,
  };
}
