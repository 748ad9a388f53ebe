import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  ConsignmentListSchema,
  ConsignmentSchema,
  InvoiceListSchema,
  InvoiceSchema,
  ItemListSchema,
  ItemSchema,
  MeSchema,
  ValuationListSchema,
} from '@coinventory/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { DEMO_KEY_FILE } from '../../src/demo/index.js';
import { describeSettings } from '../../src/env.js';
import { KEY_PATTERN } from '../../src/modules/access/index.js';
import { COMMANDS } from '../../src/operator/index.js';
import { fromStderr, removeTempDirs, runToEnd, start, stop, tempDir } from '../support/binary.js';
import { client } from '../support/http.js';

afterAll(removeTempDirs);

describe('coinventory-server on the embedded database', () => {
  const dataDir = join(tempDir(), 'data');
  let demoKey = '';

  it('creates the demo organization on first start, prints its key once, and every endpoint answers with it', async () => {
    const startedAt = Date.now();
    const server = await start({ COINVENTORY_DATA_DIR: dataDir });
    try {
      // The new data directory was unpacked from the build's empty cluster (src/db/initdb-image.ts), which keeps its
      // files' times from the build, rather than written now by initdb.
      expect(statSync(join(dataDir, 'PG_VERSION')).mtimeMs).toBeLessThan(startedAt);
      const printed = await fromStderr(server, /(cvk_live_[0-9A-Za-z]+)/);
      expect(printed, server.stderr()).not.toBeNull();
      demoKey = printed?.[1] ?? '';
      expect(demoKey).toMatch(KEY_PATTERN);
      expect(server.stderr()).toContain(`curl -H "Authorization: Bearer ${demoKey}" ${server.baseUrl}/me`);

      const api = client(server.baseUrl, demoKey);
      const me = await api.get('/me');
      expect(me.status).toBe(200);
      expect(MeSchema.parse(me.body).apiKey.scopes).toEqual(['read', 'write']);

      const items = await api.get('/items?limit=100');
      expect(items.status).toBe(200);
      const page = ItemListSchema.parse(items.body);
      expect(page.items.length).toBeGreaterThanOrEqual(40);
      const first = page.items[0];
      if (!first) throw new Error('no items');
      expect(ItemSchema.parse((await api.get(`/items/${first.id}`)).body)).toEqual(first);
      for (const status of ['in_stock', 'out_of_stock', 'sold', 'at_auction']) {
        const filtered = ItemListSchema.parse((await api.get(`/items?status=${status}`)).body);
        expect(filtered.items.length, status).toBeGreaterThan(0);
      }
      const valued = await Promise.all(page.items.map((item) => api.get(`/items/${item.id}/valuations`)));
      expect(valued.every((response) => response.status === 200)).toBe(true);
      expect(valued.some((response) => ValuationListSchema.parse(response.body).items.length > 0)).toBe(true);

      const consignments = ConsignmentListSchema.parse((await api.get('/consignments')).body);
      expect(consignments.items.length).toBeGreaterThan(0);
      const consignment = consignments.items[0];
      if (!consignment) throw new Error('no consignments');
      expect(ConsignmentSchema.parse((await api.get(`/consignments/${consignment.id}`)).body)).toEqual(consignment);

      const invoices = InvoiceListSchema.parse((await api.get('/invoices')).body);
      expect(invoices.items.length).toBeGreaterThan(0);
      const invoice = invoices.items[0];
      if (!invoice) throw new Error('no invoices');
      expect(InvoiceSchema.parse((await api.get(`/invoices/${invoice.id}`)).body)).toEqual(invoice);

      const created = await api.post('/items', { body: { sku: 'MAIN-TEST-1', title: 'Created by the binary test' } });
      expect(created.status).toBe(200);
      const id = ItemSchema.parse(created.body).id;
      expect((await api.patch(`/items/${id}`, { body: { quantity: 4 } })).status).toBe(200);
      expect((await api.delete(`/items/${id}`)).body).toEqual({ id, deleted: true });
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });

  it('keeps its data across restarts and prints no new key, nor the used one', async () => {
    const server = await start({ COINVENTORY_DATA_DIR: dataDir });
    try {
      expect(server.stderr()).not.toContain('cvk_live_');
      // The first test used the key: its kept copy is gone.
      expect(existsSync(join(dataDir, DEMO_KEY_FILE))).toBe(false);
      expect((await client(server.baseUrl, demoKey).get('/me')).status).toBe(200);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });

  it('finishes an in-flight request on SIGTERM, refuses new connections, then exits 0', async () => {
    const server = await start({ COINVENTORY_DATA_DIR: dataDir });
    const url = new URL(`${server.baseUrl}/items`);
    const body = JSON.stringify({ sku: 'INFLIGHT-1', title: 'Sent while the server stops' });
    // Headers and half the body now, the rest after SIGTERM: the request is in flight when the signal lands.
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${demoKey}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.child.exitCode).toBeNull();
    await expect(fetch(`${server.baseUrl}/me`)).rejects.toThrow();
    req.end(body.slice(10));
    const answered = await response;
    expect(answered.status, answered.text).toBe(200);
    expect(JSON.parse(answered.text)).toMatchObject({ sku: 'INFLIGHT-1' });
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  });

  it('refuses bad configuration with exit code 2 and names the variable', async () => {
    const result = await runToEnd(['start'], { COINVENTORY_DATA_DIR: dataDir, PORT: 'abc' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT');
    const badUrl = await runToEnd(['start'], { DATABASE_URL: 'mysql://localhost/x' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('DATABASE_URL');
  });

  it('migrates a new embedded database with `migrate --json`, then reports it up to date', async () => {
    const fresh = join(tempDir(), 'data');
    const first = await runToEnd(['migrate', '--json'], { COINVENTORY_DATA_DIR: fresh });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      applied: migrations.map(({ version, name }) => ({ version, name })),
      current: migrations.length,
    });
    const second = await runToEnd(['migrate'], { COINVENTORY_DATA_DIR: fresh });
    expect(second.stdout).toContain('up to date');
  });

  it('prints help, and rejects an unknown command with exit code 2', async () => {
    const help = await runToEnd(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: coinventory-server');
    // Every variable env.ts reads is listed with its default, so the help cannot fall behind the configuration.
    for (const { name, defaultValue } of describeSettings()) {
      const shown = defaultValue === '' ? 'empty' : defaultValue;
      const line = defaultValue === undefined ? `\n  ${name}\n` : `\n  ${name} (${shown})\n`;
      expect(help.stdout, name).toContain(line);
    }
    for (const command of ['start', 'sync-worker']) {
      const own = await runToEnd([command, '--help'], {});
      expect(own.code, command).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^Usage: coinventory-server ${command}\n`));
      expect(own.stdout).not.toContain('Commands:');
    }
    const extra = await runToEnd(['sync-worker', 'now'], {});
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('coinventory-server: sync-worker takes no arguments (got "now"); ');
    const unknown = await runToEnd(['launch'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('coinventory-server: unknown command "launch"; ');
  });

  it('a group of commands (listing, sync, key…) lists its own commands for --help, or names them, alone or with one it lacks', async () => {
    for (const noun of new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]))) {
      const own = COMMANDS.filter((c) => c.name.startsWith(`${noun} `));
      const help = await runToEnd([String(noun), '--help'], {});
      expect(help.code, `${noun} --help`).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: coinventory-server ${noun} <command>`));
      for (const command of own) expect(help.stdout).toContain(`  ${command.name.slice(String(noun).length + 1)} `);
      expect(help.stdout.match(/^ {2}\S/gm)).toHaveLength(own.length);
    }
    const bare = await runToEnd(['sync'], {});
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(
      'coinventory-server: "sync" needs a command; one of list, status or retry (see "coinventory-server sync --help")\n',
    );
    const lacking = await runToEnd(['listing', 'sync'], {});
    expect(lacking.code).toBe(2);
    expect(lacking.stderr).toBe(
      'coinventory-server: unknown command "listing sync"; the listing commands are link, unlink, list or simulator\n',
    );
  });
});
