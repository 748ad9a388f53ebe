import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Item } from '@coinventory/sdk';
import { describe, expect, inject, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { json, withKey } from './support/demo.js';

// `coinventory api`: raw requests against the shared server, checked against what the SDK's typed methods answer.

const { baseUrl, keys } = inject('server');
const { run, sdk } = withKey(keys.raw);
const origin = new URL(baseUrl).origin;

const newSku = () => `API-${randomUUID().slice(0, 8)}`;

describe('coinventory api', () => {
  it('GET prints the JSON body as the API sent it, with repeated --query parameters', async () => {
    const listed = json<{ items: Item[]; page: number; limit: number; hasMore: boolean }>(
      await run(['api', 'GET', '/items', '--query', 'status=in_stock', '--query', 'sort=sku', '--query', 'limit=3']),
    );
    const page = await sdk.items.list({ status: 'in_stock', sort: 'sku', limit: 3 });
    expect(listed).toEqual({ items: page.items, page: 1, limit: 3, hasMore: page.hasMore });
  });

  it('takes the path with or without its slash, with the base path, or as the whole URL', async () => {
    const me = await sdk.me();
    for (const path of ['/me', 'me', '/v1/me', `${origin}/v1/me`]) {
      expect(json(await run(['api', 'get', path])), path).toEqual(me);
    }
    expect(json(await run(['api', 'GET', '/items?sort=sku&limit=2']))).toMatchObject({ limit: 2 });
  });

  it('writes with --data as JSON text, @file and @- (stdin), once per --idempotency-key', async () => {
    const sku = newSku();
    const body = JSON.stringify({ sku, title: 'Raw write', quantity: 2, valueInCents: 4500 });
    const created = json<Item>(await run(['api', 'POST', '/items', '--data', body, '--idempotency-key', sku]));
    expect(created).toMatchObject({ sku, title: 'Raw write', valueInCents: 4500, quantity: { available: 2 } });
    expect(json(await run(['api', 'POST', '/items', '--data', body, '--idempotency-key', sku]))).toEqual(created);

    const file = join(tempDir('api'), 'changes.json');
    writeFileSync(file, '\uFEFF{"valueInCents": 5000}');
    const updated = json<Item>(await run(['api', 'PATCH', `/items/${created.id}`, '-d', `@${file}`]));
    expect(updated.valueInCents).toBe(5000);
    const piped = json<Item>(
      await run(['api', 'PATCH', `/items/${created.id}`, '-d', '@-'], { input: '{"quantity": 7}' }),
    );
    expect(piped.quantity.available).toBe(7);
    expect(await sdk.items.get(created.id)).toEqual(piped);

    expect(json(await run(['api', 'DELETE', `/items/${created.id}`]))).toEqual({ id: created.id, deleted: true });
  });

  it('prints the status line and headers first with --include', async () => {
    const { code, stdout } = await run(['api', 'GET', '/me', '--include']);
    expect(code).toBe(0);
    const [head = '', body = ''] = stdout.split('\n\n');
    expect(head.split('\n')[0]).toBe('HTTP 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(head).toMatch(/^x-request-id: \S+/m);
    expect(JSON.parse(body)).toEqual(await sdk.me());
  });

  it('prints a body that is not JSON as it came (the CSV export)', async () => {
    const { code, stdout } = await run([
      'api',
      'GET',
      '/exports/items',
      '-H',
      'Accept: text/csv',
      '--query',
      'q=Morgan',
    ]);
    expect(code).toBe(0);
    expect(stdout.split('\r\n')[0]).toMatch(/^id,sku,title,/);
    expect(stdout.split('\r\n').length).toBeGreaterThan(2);
  });

  it('reports error answers as every command does, and with --include prints the error body too', async () => {
    const missing = randomUUID();
    const notFound = await run(['api', 'GET', `/items/${missing}`]);
    expect(notFound.code).toBe(4);
    expect(notFound.stdout).toBe('');
    expect(notFound.stderr).toMatch(/^Error: .*Not found.*HTTP 404/);
    expect(notFound.stderr).toContain('Request ID: ');

    const invalid = await run(['api', 'POST', '/items', '--data', '{"sku": ""}', '--include']);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toMatch(/^HTTP 400 Bad Request\n/);
    expect(JSON.parse(invalid.stdout.split('\n\n')[1] ?? '')).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Invalid input data',
    });
    expect(invalid.stderr).toMatch(/^Error: .*Invalid input data/);

    const readOnly = await withKey(keys.readOnly).run(['api', 'DELETE', `/items/${missing}`]);
    expect(readOnly.code).toBe(3);
  });

  it('refuses bad usage with exit 2: method, body on a GET, JSON, files, parameters, a URL of another server', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['api', 'FETCH', '/items'], /Use one of GET, POST, PUT, PATCH, DELETE/],
      [['api', 'GET', '/items', '--data', '{}'], /GET takes no body/],
      [['api', 'POST', '/items', '--data', '{sku:'], /--data is not valid JSON/],
      [['api', 'POST', '/items', '--data', '@/nonexistent/body.json'], /--data: no file '\/nonexistent\/body.json'/],
      [['api', 'GET', '/items', '--query', 'status'], /Expected key=value/],
      [['api', 'GET', '/items', '-H', 'no colon'], /Expected 'Name: value'/],
      [['api', 'GET', 'https://elsewhere.example/v1/me'], /not on the API's server/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    }
  });
});
