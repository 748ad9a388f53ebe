import { HttpResponse, http, passthrough } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Coinventory,
  CoinventoryError,
  type Logger,
  type LogLevel,
  RateLimitError,
  type RequestEvent,
  type ResponseEvent,
} from '../src/index.js';
import { settle, useFakeClock } from './support/clock.js';
import { API_KEY, BASE_URL, errorBody, makeClient, server, url, useMsw } from './support/msw.js';
import { type RunningServer, startServer, stopServer } from './support/server.js';

// What the client tells about its requests: log lines at `logLevel` (or COINVENTORY_LOG) through `logger`, and the
// onRequest/onResponse hooks, which see every attempt and every wait before a retry. Neither may carry the API key,
// nor break a request.

useMsw();

/** A logger that records each call as `level: message`, and every argument for the key check. */
function recordingLogger() {
  const lines: string[] = [];
  const args: unknown[] = [];
  const method =
    (level: string) =>
    (message: string, ...details: unknown[]) => {
      lines.push(`${level}: ${message}`);
      args.push(message, ...details);
    };
  const logger: Logger = { error: method('error'), warn: method('warn'), info: method('info'), debug: method('debug') };
  return { logger, lines, args };
}

/** GET /me answers 429 (Retry-After 12) once, then 200. */
function limitedOnce(): void {
  let calls = 0;
  server.use(
    http.get(url('/me'), () => {
      calls += 1;
      if (calls === 1) {
        return HttpResponse.json(errorBody('TOO_MANY_REQUESTS', 'Too many requests'), {
          status: 429,
          headers: { 'Retry-After': '12', 'X-Request-Id': 'req_429' },
        });
      }
      return HttpResponse.json({ organization: { slug: 'x' } }, { headers: { 'X-Request-Id': 'req_200' } });
    }),
  );
}

describe('log lines', () => {
  useFakeClock();
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  async function linesAt(logLevel: LogLevel | undefined) {
    limitedOnce();
    const { logger, lines, args } = recordingLogger();
    const outcome = await settle(makeClient({ logger, ...(logLevel ? { logLevel } : {}) }).me());
    expect(outcome.error).toBeUndefined();
    return { lines, args };
  }

  const waitLine = 'warn: coinventory: GET /me: rate limited (429); waiting 12 s (attempt 2 of 3)';

  it("by default ('warn'), a wait for the rate limit and nothing else", async () => {
    expect((await linesAt(undefined)).lines).toEqual([waitLine]);
  });

  it("'info' adds one line per attempt: status, duration, attempt, request id", async () => {
    expect((await linesAt('info')).lines).toEqual([
      'info: coinventory: GET /me 429 in 0 ms (attempt 1 of 3, request req_429)',
      waitLine,
      'info: coinventory: GET /me 200 in 0 ms (attempt 2 of 3, request req_200)',
    ]);
  });

  it("'debug' adds each request as sent, Authorization redacted; the key is in no argument", async () => {
    const { lines, args } = await linesAt('debug');
    expect(lines.filter((line) => line.startsWith('debug:'))).toEqual([
      'debug: coinventory: GET /me sent (attempt 1 of 3)',
      'debug: coinventory: GET /me sent (attempt 2 of 3)',
    ]);
    expect(args[1]).toMatchObject({ headers: { authorization: '[redacted]', accept: 'application/json' } });
    expect(JSON.stringify(args)).not.toContain(API_KEY);
    expect(JSON.stringify(args)).not.toContain(API_KEY.slice(-10));
  });

  it("'off' and 'error': nothing for a wait", async () => {
    expect((await linesAt('off')).lines).toEqual([]);
    expect((await linesAt('error')).lines).toEqual([]);
  });

  it('reads COINVENTORY_LOG when logLevel is not given; logLevel wins', async () => {
    vi.stubEnv('COINVENTORY_LOG', 'INFO');
    expect((await linesAt(undefined)).lines).toHaveLength(3);
    expect((await linesAt('off')).lines).toEqual([]);
  });

  it('a bad COINVENTORY_LOG is warned about and ignored; a bad logLevel throws', async () => {
    vi.stubEnv('COINVENTORY_LOG', 'loud');
    const { lines } = await linesAt(undefined);
    expect(lines).toEqual([
      'warn: coinventory: COINVENTORY_LOG="loud" is not a log level (off, error, warn, info, debug); logging at warn.',
      waitLine,
    ]);
    expect(() => makeClient({ logLevel: 'loud' as LogLevel })).toThrow(
      new CoinventoryError('logLevel must be one of off, error, warn, info, debug; got "loud".'),
    );
  });

  it('says when a Retry-After is too long to wait for, and that it is not retried', async () => {
    server.use(
      http.get(url('/me'), () =>
        HttpResponse.json(errorBody('TOO_MANY_REQUESTS', 'Too many requests'), {
          status: 429,
          headers: { 'Retry-After': '600' },
        }),
      ),
    );
    const { logger, lines } = recordingLogger();
    const outcome = await settle(makeClient({ logger }).me());
    expect(outcome.error).toBeInstanceOf(RateLimitError);
    expect(lines).toEqual([
      'warn: coinventory: GET /me: told to retry after 600 s, longer than the 60 s the client waits; not retrying',
    ]);
  });

  it('a logger that throws does not fail the request', async () => {
    limitedOnce();
    const broken = () => {
      throw new Error('disk full');
    };
    const logger: Logger = { error: broken, warn: broken, info: broken, debug: broken };
    expect((await settle(makeClient({ logger, logLevel: 'debug' }).me())).value).toEqual({
      organization: { slug: 'x' },
    });
  });
});

describe('onRequest and onResponse', () => {
  useFakeClock();

  it('report every attempt, and the wait before a retry with its reason; never the key', async () => {
    limitedOnce();
    const events: Array<['request', RequestEvent] | ['response', ResponseEvent]> = [];
    const client = makeClient({
      logLevel: 'off',
      onRequest: (event) => events.push(['request', event]),
      onResponse: (event) => events.push(['response', event]),
    });
    expect((await settle(client.me())).value).toEqual({ organization: { slug: 'x' } });
    const sent = { method: 'GET', path: '/me', maxAttempts: 3, idempotencyKey: undefined };
    expect(events).toEqual([
      ['request', { ...sent, attempt: 1 }],
      [
        'response',
        {
          ...sent,
          attempt: 1,
          status: 429,
          durationMs: 0,
          requestId: 'req_429',
          error: expect.any(RateLimitError),
          retry: { delayMs: 12_000, reason: 'rate_limited', nextAttempt: 2 },
        },
      ],
      ['request', { ...sent, attempt: 2 }],
      [
        'response',
        { ...sent, attempt: 2, status: 200, durationMs: 0, requestId: 'req_200', error: undefined, retry: undefined },
      ],
    ]);
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it("carry a write's Idempotency-Key and the query; a connection error has no status", async () => {
    let calls = 0;
    server.use(
      http.post(url('/items'), () => {
        calls += 1;
        return calls === 1 ? HttpResponse.error() : HttpResponse.json({ id: 'it-1' }, { status: 201 });
      }),
    );
    const responses: ResponseEvent[] = [];
    const client = makeClient({ logLevel: 'off', onResponse: (event) => responses.push(event) });
    await settle(client.items.create({ sku: 'S', title: 'T' }, { idempotencyKey: 'order-1', dryRun: true }));
    expect(
      responses.map(({ path, status, idempotencyKey, retry }) => ({ path, status, idempotencyKey, retry })),
    ).toEqual([
      {
        path: '/items?dryRun=true',
        status: undefined,
        idempotencyKey: 'order-1',
        retry: { delayMs: 500, reason: 'connection_error', nextAttempt: 2 },
      },
      { path: '/items?dryRun=true', status: 201, idempotencyKey: 'order-1', retry: undefined },
    ]);
  });

  it('a hook that throws or rejects is logged at error, and the request goes on', async () => {
    limitedOnce();
    const { logger, lines } = recordingLogger();
    const client = makeClient({
      logger,
      logLevel: 'error',
      onRequest: () => {
        throw new Error('bad hook');
      },
      onResponse: async () => {
        throw new Error('bad async hook');
      },
    });
    expect((await settle(client.me())).value).toEqual({ organization: { slug: 'x' } });
    expect(lines).toEqual([
      'error: coinventory: the onRequest hook threw; the request went on: bad hook',
      'error: coinventory: the onResponse hook threw; the request went on: bad async hook',
      'error: coinventory: the onRequest hook threw; the request went on: bad hook',
      'error: coinventory: the onResponse hook threw; the request went on: bad async hook',
    ]);
  });
});

describe('against a real server with a tight rate limit', () => {
  let running: RunningServer | undefined;

  beforeAll(async () => {
    // 2 requests per 3 s: the third call meets a 429 and waits it out.
    running = await startServer({ RATE_LIMIT_MAX_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '3' });
  });
  afterAll(async () => {
    await stopServer(running);
  });

  it('a wait for the rate limit is logged and reported, then the call succeeds', async () => {
    server.use(http.all(`${new URL(running?.baseUrl ?? BASE_URL).origin}/*`, () => passthrough()));
    const { logger, lines } = recordingLogger();
    const responses: ResponseEvent[] = [];
    const client = new Coinventory({
      apiKey: running?.apiKey,
      baseUrl: running?.baseUrl,
      logger,
      onResponse: (event) => responses.push(event),
    });
    for (let i = 0; i < 3; i += 1) await client.me();
    const limited = responses.filter((event) => event.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const event of limited) {
      expect(event.retry).toMatchObject({ reason: 'rate_limited', delayMs: expect.any(Number) });
      expect(event.requestId).toMatch(/^req_/);
    }
    expect(responses.at(-1)).toMatchObject({ status: 200, retry: undefined });
    expect(lines).toEqual(
      limited.map(
        (event) =>
          `warn: coinventory: GET /me: rate limited (429); waiting ${Math.round((event.retry?.delayMs ?? 0) / 1000)} s (attempt ${event.attempt + 1} of 3)`,
      ),
    );
  }, 30_000);
});
