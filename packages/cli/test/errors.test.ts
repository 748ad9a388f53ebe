import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Coinventory, type Item } from '@coinventory/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, tempDir, timings } from './support/cli.js';
import { createKey, type RunningServer, startServer, stopServer } from './support/server.js';

// One exit code per class of failure, each through the built binary: usage 2 (see usage.test.ts), auth 3,
// not found 4, conflict 5, rate limited 6, server 7, network 8. The API errors come from the real server; the
// rate limits from two more real servers with tight limits; the 5xx from a tiny local server (the real one has no
// way to fail on demand); the network error from a closed port.

const { baseUrl, keys } = inject('server');
const env = { COINVENTORY_BASE_URL: baseUrl, COINVENTORY_API_KEY: keys.errors };

let limited: RunningServer | undefined;
let blocked: RunningServer | undefined;
let paced: RunningServer | undefined;
let failing: Server;
let failingUrl: string;
let failingHits = 0;
/** The Idempotency-Key of each request the failing server got. */
let failingKeys: Array<string | undefined> = [];
let closedUrl: string;

beforeAll(async () => {
  [limited, blocked, paced] = await Promise.all([
    // 3 requests per 6 s: a walk of 7 small pages must wait, and gets through.
    startServer({ RATE_LIMIT_MAX_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '6' }),
    // 1 request per 10 minutes: the second request's Retry-After is too long to wait for.
    startServer({ RATE_LIMIT_MAX_REQUESTS: '1', RATE_LIMIT_WINDOW_SECONDS: '600' }),
    // 3 requests per 15 s, for imports: each test first spends its own key's window with quick requests, so what
    // the import meets does not depend on how long a batch of 100 rows takes on a loaded machine (12 s in CI).
    startServer({ RATE_LIMIT_MAX_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '15' }),
  ]);
  failing = createServer((request, response) => {
    failingHits += 1;
    failingKeys.push(request.headers['idempotency-key']?.toString());
    response.writeHead(500, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_failing-1' });
    response.end(JSON.stringify({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' }));
  });
  failing.listen(0, '127.0.0.1');
  await once(failing, 'listening');
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`;
  const closed = createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
  closed.close();
  await once(closed, 'close');
});

afterAll(async () => {
  failing?.close();
  await Promise.all([stopServer(limited), stopServer(blocked), stopServer(paced)]);
});

describe('authentication: exit 3', () => {
  it('an unknown key (401)', async () => {
    const result = await cli(['me'], {
      env: { ...env, COINVENTORY_API_KEY: 'cvk_live_000000000000000000000000000000000000000' },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^Error: Authorization not provided \(UNAUTHORIZED, HTTP 401\)\nRequest ID: req_\S+\nThe API refused the key cvk_live_0000…: check that it is the whole key, and that it has not expired or been revoked\.\nTo save a new key: coinventory login \(or set COINVENTORY_API_KEY\)\.\n$/,
    );
  });

  it('a read-only key trying to create (403)', async () => {
    const result = await cli(['items', 'create', '--sku', `RO-${randomUUID()}`, '--title', 'Nope'], {
      env: { ...env, COINVENTORY_API_KEY: keys.readOnly },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /^Error: Insufficient access \(FORBIDDEN, HTTP 403\)\nRequest ID: req_\S+\nThis request needs the "write" scope, which the key cvk_live_\w{4}… lacks: use a key that has it \(GET \/me lists a key's scopes\)\.\nTo see the key's scopes: coinventory me\n$/,
    );
  });

  it('no key at all', async () => {
    const result = await cli(['items', 'list'], { env: { COINVENTORY_BASE_URL: baseUrl } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Run 'coinventory login'");
  });
});

describe('refused by the API as invalid (400): exit 2, with each issue', () => {
  it('a category that does not exist', async () => {
    const result = await cli(
      ['items', 'create', '--sku', `BAD-${randomUUID()}`, '--title', 'T', '--category-id', randomUUID()],
      { env },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^Error: Invalid input data \(BAD_REQUEST, HTTP 400\)\n {2}- body\.categoryId: no category with this id in the organization\nRequest ID: req_\S+\n$/,
    );
  });
});

describe('not found: exit 4; conflict: exit 5', () => {
  it('an unknown id, for each resource: named on the first line', async () => {
    const id = randomUUID();
    for (const [type, args] of [
      ['item', ['items', 'get', id]],
      ['item', ['items', 'update', id, '--quantity', '1']],
      ['item', ['items', 'delete', id, '--yes']],
      ['item', ['items', 'valuations', id]],
      ['consignment', ['consignments', 'get', id]],
      ['invoice', ['invoices', 'get', id]],
    ] as const) {
      const result = await cli([...args], { env });
      expect(result.code, args.join(' ')).toBe(4);
      expect(result.stderr, args.join(' ')).toMatch(
        new RegExp(`^Error: Not found: ${type} ${id} \\(NOT_FOUND, HTTP 404\\)\nRequest ID: req_\\S+\n$`),
      );
    }
  });

  it('a base URL without /v1: exit 4, with what to change rather than a missing object', async () => {
    const origin = new URL(baseUrl).origin;
    for (const args of [['items', 'list'], ['items', 'get', randomUUID()], ['me']]) {
      const result = await cli(args, { env: { ...env, COINVENTORY_BASE_URL: origin } });
      expect(result.code, args.join(' ')).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Error: Not found (NOT_FOUND, HTTP 404)\nRequest ID: ${/Request ID: (\S+)/.exec(result.stderr)?.[1]}\nThe base URL ${origin} does not end in /v1; did you mean ${origin}/v1?\n`,
      );
    }
  });

  it('creating an item with a SKU in use', async () => {
    const result = await cli(['items', 'create', '--sku', 'AGE-1986-W-PF69', '--title', 'Duplicate'], { env });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(
      /^Error: An item with this SKU already exists in the workspace \(CONFLICT, HTTP 409\)\nRequest ID: req_\S+\n$/,
    );
  });
});

describe('rate limited', () => {
  it('waits and retries on 429, telling the user on stderr, then succeeds; pages stream meanwhile', async () => {
    const server = limited as RunningServer;
    const result = await cli(['items', 'list', '--all', '--limit', '10', '--json'], {
      env: { COINVENTORY_BASE_URL: server.baseUrl, COINVENTORY_API_KEY: server.apiKey },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Rate limited; retrying in \d+s… \(retry 1 of 3\)$/m);
    // The output streamed: the pages before the wait were on stdout well before the end.
    const timing = timings.get(result);
    expect(timing?.firstStdoutMs).toBeLessThan((timing?.exitMs ?? 0) - 1000);
    const { items } = JSON.parse(result.stdout) as { items: Item[] };
    expect(items.length).toBeGreaterThan(50);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
  });

  describe('items import paces itself from the RateLimit headers', () => {
    /** A CSV of `rows` new items, and the SKUs it holds. */
    function rowsFile(name: string, rows: number): { file: string; skus: string[] } {
      const prefix = `PACE-${randomUUID().slice(0, 8)}`;
      const skus = Array.from({ length: rows }, (_, i) => `${prefix}-${i}`);
      const file = join(tempDir('pace'), `${name}.csv`);
      writeFileSync(file, `sku,title\n${skus.map((sku) => `${sku},Paced`).join('\n')}\n`);
      return { file, skus };
    }

    async function skusIn(sdk: Coinventory, skus: readonly string[]): Promise<string[]> {
      const prefix = skus[0]?.replace(/-\d+$/, '') ?? '';
      const found: string[] = [];
      for await (const item of sdk.items.export({ q: prefix })) found.push(item.sku);
      return found.sort();
    }

    it('a batch that leaves one request in the window: it pauses instead of getting a 429', async () => {
      const server = paced as RunningServer;
      // A key of its own; two quick requests leave one in its window, which the first batch takes.
      const key = await createKey(server, 'cli import pacing', 'read,write');
      const sdk = new Coinventory({ apiKey: key, baseUrl: server.baseUrl, maxRetries: 3 });
      for (let i = 0; i < 2; i += 1) await sdk.me();
      const { file, skus } = rowsFile('paced', 101);
      const result = await cli(['items', 'import', file, '--json'], {
        env: { COINVENTORY_BASE_URL: server.baseUrl, COINVENTORY_API_KEY: key },
      });
      expect(result.stderr).not.toContain('Rate limited');
      expect(result.stderr).toMatch(/^Waiting \d+ s for the rate limit \(3 requests per 15 s\)…$/m);
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary).toMatchObject({ created: 101, refused: 0, rateLimited: 0 });
      expect(summary.pauses).toBeGreaterThanOrEqual(1);
      expect(await skusIn(sdk, skus)).toEqual([...skus].sort());
    });

    it('a 429 all the same (the window spent by others): the batch is sent again, applied once, and counted', async () => {
      const server = paced as RunningServer;
      const key = await createKey(server, 'cli import after a 429', 'read,write');
      const sdk = new Coinventory({ apiKey: key, baseUrl: server.baseUrl, maxRetries: 3 });
      for (let i = 0; i < 3; i += 1) await sdk.me();
      const { file, skus } = rowsFile('limited', 150);
      const result = await cli(['items', 'import', file, '--json'], {
        env: { COINVENTORY_BASE_URL: server.baseUrl, COINVENTORY_API_KEY: key },
      });
      expect(result.stderr).toMatch(/^Rate limited; retrying in \d+s… \(retry 1 of 3\)$/m);
      expect(result.stderr).toMatch(/^Rate limit: [1-9]\d* requests? refused \(429\)/m);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ created: 150, refused: 0, rateLimited: expect.any(Number) });
      expect(JSON.parse(result.stdout).rateLimited).toBeGreaterThanOrEqual(1);
      expect(await skusIn(sdk, skus)).toEqual([...skus].sort());
    });
  });

  it('exit 6 when the limit cannot be waited out within the retries', async () => {
    const server = blocked as RunningServer;
    const run = () =>
      cli(['me'], { env: { COINVENTORY_BASE_URL: server.baseUrl, COINVENTORY_API_KEY: server.apiKey } });
    expect((await run()).code).toBe(0);
    const started = Date.now();
    const result = await run();
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(
      /^Error: Too many requests \(TOO_MANY_REQUESTS, HTTP 429\)\nRequest ID: req_\S+\nRetry after \d+ s: the rate limit counts every request made with this key, by every process using it\.\n$/,
    );
    expect(result.stderr).not.toContain('retrying');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('server busy (503 SERVICE_UNAVAILABLE)', () => {
  /** Answers each request with the next of `answers` (the last repeats), recording the methods. */
  async function busyServer(answers: Array<[status: number, body: unknown]>) {
    const methods: string[] = [];
    const server = createServer((request, response) => {
      methods.push(request.method ?? '');
      const [status, body] = answers[Math.min(methods.length - 1, answers.length - 1)] ?? [500, {}];
      response.writeHead(status, {
        'Content-Type': 'application/json',
        'X-Request-Id': `req_busy-${methods.length}`,
        ...(status === 503 && { 'Retry-After': '1' }),
      });
      response.end(JSON.stringify(body));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, methods, server };
  }
  const BUSY = { code: 'SERVICE_UNAVAILABLE', message: 'Server busy; retry after the Retry-After delay' };

  it('a create is retried after Retry-After, telling the user on stderr, since the server did nothing', async () => {
    const conflict = { code: 'CONFLICT', message: 'An item with this SKU already exists in the workspace' };
    const busy = await busyServer([
      [503, BUSY],
      [409, conflict],
    ]);
    try {
      const result = await cli(['items', 'create', '--sku', 'BUSY-1', '--title', 'Busy'], {
        env: { COINVENTORY_BASE_URL: busy.url, COINVENTORY_API_KEY: keys.errors },
      });
      expect(busy.methods).toEqual(['POST', 'POST']);
      expect(result.stderr).toMatch(/^Server busy; retrying in 1s… \(retry 1 of 3\)$/m);
      expect(result.code).toBe(5);
    } finally {
      busy.server.close();
    }
  });

  it('a create answered 503 by something other than the API is retried too (it carries an Idempotency-Key), each wait announced', async () => {
    const busy = await busyServer([[503, { error: 'upstream unavailable' }]]);
    try {
      const result = await cli(['items', 'create', '--sku', 'BUSY-2', '--title', 'Busy'], {
        env: { COINVENTORY_BASE_URL: busy.url, COINVENTORY_API_KEY: keys.errors },
      });
      expect(busy.methods).toEqual(['POST', 'POST', 'POST', 'POST']);
      expect(result.stderr).toMatch(/^Server busy; retrying in \ds… \(retry 3 of 3\)$/m);
      expect(result.code).toBe(7);
    } finally {
      busy.server.close();
    }
  });
});

describe('server error: exit 7', () => {
  it('a 5xx answer: code, message and request id; GET and POST are retried, POST with one Idempotency-Key', async () => {
    failingHits = 0;
    const get = await cli(['me'], { env: { COINVENTORY_BASE_URL: failingUrl, COINVENTORY_API_KEY: 'cvk_live_x' } });
    expect(get.code).toBe(7);
    expect(get.stderr).toBe(
      'Error: Internal server error (INTERNAL_SERVER_ERROR, HTTP 500)\nRequest ID: req_failing-1\n',
    );
    expect(failingHits).toBe(4);
    failingHits = 0;
    failingKeys = [];
    const post = await cli(['items', 'create', '--sku', 'S', '--title', 'T'], {
      env: { COINVENTORY_BASE_URL: failingUrl, COINVENTORY_API_KEY: 'cvk_live_x' },
    });
    expect(post.code).toBe(7);
    // The server applies one key's request at most once, so the retries cannot create the item twice.
    expect(failingHits).toBe(4);
    expect(new Set(failingKeys).size).toBe(1);
    expect(failingKeys[0]).toMatch(/\S/);
  });
});

describe('network: exit 8', () => {
  it('nothing listening', async () => {
    const result = await cli(['items', 'create', '--sku', 'S', '--title', 'T'], {
      env: { COINVENTORY_BASE_URL: closedUrl, COINVENTORY_API_KEY: 'cvk_live_x' },
    });
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/^Error: Could not reach the API: Connection error: .*\nCheck --base-url/);
  });

  it('a GET is retried first, then fails the same way', async () => {
    const result = await cli(['me'], { env: { COINVENTORY_BASE_URL: closedUrl, COINVENTORY_API_KEY: 'cvk_live_x' } });
    expect(result.code).toBe(8);
  });
});
