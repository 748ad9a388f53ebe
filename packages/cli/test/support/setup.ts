import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createKey, type RunningServer, type ServerInfo, startServer, stopServer } from './server.js';

/** What the global setup gives every test file: one real server with the demo workspace, and keys. */
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
  };
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
  // Webhook endpoints on this machine's loopback receivers: the tests' own, which the server refuses otherwise.
  server = await startServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const info: ServerInfo = { baseUrl: server.baseUrl, apiKey: server.apiKey, dataDir: server.dataDir };
  const [readOnly, auth, errors, terminal, bySku, places, changes, follow, listen, webhooks] = await Promise.all([
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
  ]);
  project.provide('server', {
    ...info,
    keys: { main: server.apiKey, readOnly, auth, errors, terminal, bySku, places, changes, follow, listen, webhooks },
  });
  return async () => {
    await stopServer(server);
    rmSync(tmpRoot, { recursive: true, force: true });
  };
}
