import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  createKey,
  type RunningServer,
  runOperatorCommand,
  type ServerInfo,
  startServer,
  stopServer,
} from './server.js';

/** What the global setup gives every test file: one real server with the demo organization, and keys. */
export interface SharedServer extends ServerInfo {
  /** Separate keys per test file, so one file's requests never spend another's rate limit. */
  keys: {
    main: string;
    readOnly: string;
    auth: string;
    errors: string;
    terminal: string;
    bySku: string;
    places: string;
    changes: string;
    follow: string;
    listen: string;
    webhooks: string;
    importer: string;
    exporter: string;
    /** `api` and `--fields`. */
    raw: string;
    /** Spreadsheet formulas in CSV: written neutralised, imported back. */
    formulas: string;
    /** Adjustments, movements and reservations. */
    inventory: string;
    /** `items import --help`'s columns and the shipped sample, tried with dry runs. */
    importHelp: string;
    /** Keys of an organization of their own (BULK_ORGANIZATION), empty at first: the bulk imports fill it. */
    bulk: string;
    bulkResume: string;
    /** A test key (cvk_test_…) of the demo organization: it reaches the organization's sandbox. */
    testMode: string;
  };
}

/** The organization the bulk import tests fill with thousands of items, away from the demo organization the others read. */
export const BULK_ORGANIZATION = 'cli-bulk-import';
const BULK_OWNER = 'owner@cli-bulk-import.example';

/** Runs an operator command against the server; throws with its output when it fails. */
async function operator(info: ServerInfo, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runOperatorCommand(info, [...args, '--json']);
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`);
  return stdout;
}

/** An empty organization with API access, and `names.length` read/write keys of it. */
async function bulkOrganizationKeys(info: ServerInfo, names: string[]): Promise<string[]> {
  await operator(info, [
    'org',
    'create',
    '--name',
    'CLI bulk import',
    '--slug',
    BULK_ORGANIZATION,
    '--plan',
    'business',
  ]);
  await operator(info, ['user', 'create', '--email', BULK_OWNER]);
  await operator(info, ['member', 'add', '--org', BULK_ORGANIZATION, '--user', BULK_OWNER, '--role', 'owner']);
  const create = ['key', 'create', '--org', BULK_ORGANIZATION, '--creator', BULK_OWNER, '--scopes', 'read,write'];
  return Promise.all(
    names.map(async (name) => (JSON.parse(await operator(info, [...create, '--name', name])) as { key: string }).key),
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    server: SharedServer;
    /** A temporary directory for the tests' HOMEs and files, removed after the run. */
    tmpRoot: string;
  }
}

let server: RunningServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const tmpRoot = mkdtempSync(join(tmpdir(), 'coinventory-cli-test-'));
  project.provide('tmpRoot', tmpRoot);
  const teardown = async () => {
    await stopServer(server);
    rmSync(tmpRoot, { recursive: true, force: true });
  };
  try {
    // Webhook endpoints on this machine's loopback receivers: the tests' own, which the server refuses otherwise.
    server = await startServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const info: ServerInfo = { baseUrl: server.baseUrl, apiKey: server.apiKey, dataDir: server.dataDir };
    const [
      readOnly,
      auth,
      errors,
      terminal,
      bySku,
      places,
      changes,
      follow,
      listen,
      webhooks,
      importer,
      exporter,
      raw,
      formulas,
      inventory,
      importHelp,
      [bulk, bulkResume],
      testMode,
    ] = await Promise.all([
      createKey(info, 'cli read-only', 'read'),
      createKey(info, 'cli auth tests', 'read,write'),
      createKey(info, 'cli error tests', 'read,write'),
      createKey(info, 'cli terminal tests', 'read,write'),
      createKey(info, 'cli items by SKU tests', 'read,write'),
      createKey(info, 'cli categories and warehouses tests', 'read'),
      createKey(info, 'cli changes tests', 'read,write'),
      createKey(info, 'cli changes --follow tests', 'read,write'),
      createKey(info, 'cli listen tests', 'read,write'),
      createKey(info, 'cli webhooks tests', 'read,write'),
      createKey(info, 'cli import tests', 'read,write'),
      createKey(info, 'cli export tests', 'read'),
      createKey(info, 'cli api and --fields tests', 'read,write'),
      createKey(info, 'cli CSV formula tests', 'read,write'),
      createKey(info, 'cli inventory tests', 'read,write'),
      createKey(info, 'cli import help tests', 'read,write'),
      bulkOrganizationKeys(info, ['cli bulk import tests', 'cli bulk import resume tests']),
      createKey(info, 'cli test mode tests', 'read,write', 'test'),
    ]);
    project.provide('server', {
      ...info,
      keys: {
        main: server.apiKey,
        readOnly,
        auth,
        errors,
        terminal,
        bySku,
        places,
        changes,
        follow,
        listen,
        webhooks,
        importer,
        exporter,
        raw,
        formulas,
        inventory,
        importHelp,
        bulk: bulk as string,
        bulkResume: bulkResume as string,
        testMode,
      },
    });
  } catch (error) {
    // Vitest runs no teardown for a setup that throws (a key the server could not create): without this the
    // server would outlive the run.
    await teardown();
    throw error;
  }
  return teardown;
}
