import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { backoffMs, RETRY, retryDelayMs } from '../src/core/retry.js';
import {
  APIConnectionError,
  APIUserAbortError,
  BadRequestError,
  type Coinventory,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from '../src/index.js';
import { outcomeOf, settle, useFakeClock } from './support/clock.js';
import { errorBody, makeClient, server, url, useMsw } from './support/msw.js';

useMsw();
useFakeClock();

type Answer = () => Response;
const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  () =>
    HttpResponse.json(errorBody('X', `status ${code}`), { status: code, headers });
const ok: Answer = () => HttpResponse.json({ id: 'it-1', deleted: true, items: [], page: 1, limit: 20 });
const networkError: Answer = () => HttpResponse.error();

/**
 * Serves `method path` with the given answers in turn (the last one repeats) and records when each request came,
 * in fake milliseconds since the call started.
 */
function serve(method: 'get' | 'post' | 'patch' | 'delete', path: string, answers: Answer[]): number[] {
  const start = Date.now();
  const times: number[] = [];
  server.use(
    http[method](url(path), () => {
      times.push(Date.now() - start);
      const answer = answers[Math.min(times.length - 1, answers.length - 1)];
      if (!answer) throw new Error('no answer');
      return answer();
    }),
  );
  return times;
}

const calls: Record<
  string,
  [method: 'get' | 'post' | 'patch' | 'delete', path: string, (c: Coinventory) => Promise<unknown>]
> = {
  GET: ['get', '/items/it-1', (c) => c.items.get('it-1')],
  DELETE: ['delete', '/items/it-1', (c) => c.items.delete('it-1')],
  POST: ['post', '/items', (c) => c.items.create({ sku: 'S', title: 'T' })],
  PATCH: ['patch', '/items/it-1', (c) => c.items.update('it-1', { quantity: 1 })],
};

describe('backoff', () => {
  it('doubles from 0.5 s, caps at 8 s, and jitter takes off at most a quarter', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffMs(0, () => 1)).toBe(375);
    expect(backoffMs(4, () => 0.5)).toBe(7000);
    expect(RETRY.maxRetryAfterSeconds).toBe(60);
  });

  it('waits 0.5 s, then 1 s, between attempts (GET on 503, 503, then 200)', async () => {
    const times = serve('get', '/items/it-1', [status(503), status(503), ok]);
    const { value, error } = await settle(makeClient().items.get('it-1'));
    expect(error).toBeUndefined();
    expect(value).toMatchObject({ id: 'it-1' });
    expect(times).toEqual([0, 500, 1500]);
  });

  it('applies jitter: with the largest random draw, 0.375 s then 0.75 s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const times = serve('get', '/items/it-1', [status(500), status(500), ok]);
    await settle(makeClient().items.get('it-1'));
    expect(times).toEqual([0, 375, 1125]);
  });

  it('does not send the retry a millisecond early', async () => {
    const times = serve('get', '/items/it-1', [status(502), ok]);
    const outcome = outcomeOf(makeClient().items.get('it-1'));
    await vi.advanceTimersByTimeAsync(499);
    expect(times).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(times).toEqual([0, 500]);
    expect((await outcome).value).toMatchObject({ id: 'it-1' });
  });
});

describe('which failures are retried', () => {
  it.each([500, 502, 503, 504])('every method is retried on %i, up to maxRetries (2): 3 attempts', async (code) => {
    for (const method of ['GET', 'DELETE', 'POST', 'PATCH'] as const) {
      const [verb, path, call] = calls[method] ?? expect.fail();
      const times = serve(verb, path, [status(code)]);
      const { error } = await settle(call(makeClient()));
      expect(error, method).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: code });
      expect(times, method).toHaveLength(3);
    }
  });

  it.each(['GET', 'DELETE', 'POST', 'PATCH'])('%s is retried on a connection error', async (method) => {
    const [verb, path, call] = calls[method] ?? expect.fail();
    const times = serve(verb, path, [networkError, ok]);
    const { error } = await settle(call(makeClient()));
    expect(error).toBeUndefined();
    expect(times).toEqual([0, 500]);
  });

  it.each(['GET', 'DELETE', 'POST', 'PATCH'])('%s is retried on 429, waiting Retry-After', async (method) => {
    const [verb, path, call] = calls[method] ?? expect.fail();
    const times = serve(verb, path, [status(429, { 'Retry-After': '3' }), ok]);
    const { error } = await settle(call(makeClient()));
    expect(error).toBeUndefined();
    expect(times).toEqual([0, 3000]);
  });

  it.each(['POST', 'PATCH'])(
    '%s is retried on the server saying it did nothing (503 SERVICE_UNAVAILABLE, 408 REQUEST_TIMEOUT)',
    async (method) => {
      const [verb, path, call] = calls[method] ?? expect.fail();
      const refused =
        (code: number, errorCode: string, headers: Record<string, string> = {}): Answer =>
        () =>
          HttpResponse.json(errorBody(errorCode, 'refused'), { status: code, headers });
      const times = serve(verb, path, [
        refused(503, 'SERVICE_UNAVAILABLE', { 'Retry-After': '2' }),
        refused(408, 'REQUEST_TIMEOUT'),
        ok,
      ]);
      const { error } = await settle(call(makeClient()));
      expect(error).toBeUndefined();
      expect(times).toEqual([0, 2000, 3000]);
    },
  );

  it('waits the backoff when it is longer than Retry-After, or when there is none', async () => {
    const times = serve('get', '/items/it-1', [status(429, { 'Retry-After': '0' }), status(429), ok]);
    await settle(makeClient().items.get('it-1'));
    expect(times).toEqual([0, 500, 1500]);
  });

  it('does not wait for a Retry-After above 60 s: the RateLimitError is thrown at once', async () => {
    const times = serve('get', '/items/it-1', [status(429, { 'Retry-After': '61' }), ok]);
    const { error } = await settle(makeClient().items.get('it-1'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(61);
    expect(times).toEqual([0]);
  });

  it('throws the RateLimitError once retries are used up', async () => {
    const times = serve('get', '/me', [status(429, { 'Retry-After': '1' })]);
    const { error } = await settle(makeClient().me());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(times).toEqual([0, 1000, 2000]);
  });

  it.each([400, 401, 403, 404, 409, 412])('never retries %i, whatever the method', async (code) => {
    for (const method of ['GET', 'DELETE', 'POST', 'PATCH'] as const) {
      const [verb, path, call] = calls[method] ?? expect.fail();
      const times = serve(verb, path, [status(code), ok]);
      await settle(call(makeClient()));
      expect(times, method).toHaveLength(1);
    }
  });

  it('passes on what a retried DELETE is finally answered, such as a 404', async () => {
    const times = serve('delete', '/items/it-1', [status(503), status(404)]);
    const { error } = await settle(makeClient().items.delete('it-1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(times).toEqual([0, 500]);
  });
});

describe('maxRetries', () => {
  it('is taken from the client', async () => {
    const times = serve('get', '/me', [status(500)]);
    await settle(makeClient({ maxRetries: 4 }).me());
    expect(times).toEqual([0, 500, 1500, 3500, 7500]);
  });

  it('is overridden per call, in both directions', async () => {
    const times = serve('get', '/items/it-1', [status(500)]);
    await settle(makeClient({ maxRetries: 4 }).items.get('it-1', { maxRetries: 0 }));
    expect(times).toHaveLength(1);
    const more = serve('get', '/items', [status(500)]);
    await settle(
      makeClient()
        .items.list({}, { maxRetries: 3 })
        .then((page) => page.items),
    );
    expect(more).toHaveLength(4);
  });

  it('0 on the client disables retries', async () => {
    const times = serve('get', '/me', [networkError]);
    expect((await settle(makeClient({ maxRetries: 0 }).me())).error).toBeInstanceOf(APIConnectionError);
    expect(times).toHaveLength(1);
  });
});

describe('aborting', () => {
  it('stops during the wait before a retry, without sending it', async () => {
    const times = serve('get', '/me', [status(503), ok]);
    const controller = new AbortController();
    const outcome = outcomeOf(makeClient().me({ signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(200);
    controller.abort();
    const { error } = await outcome;
    await vi.runAllTimersAsync();
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(times).toEqual([0]);
  });
});

describe('retryDelayMs, the rule as a function', () => {
  const bad = new BadRequestError({
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Invalid input data',
    issues: undefined,
    headers: new Headers(),
    body: undefined,
  });
  it('never retries past maxRetries, a user abort, or a 400', () => {
    expect(retryDelayMs('GET', new APIConnectionError(), 2, 2)).toBeUndefined();
    expect(retryDelayMs('GET', new APIUserAbortError(), 0, 2)).toBeUndefined();
    expect(retryDelayMs('GET', bad, 0, 2)).toBeUndefined();
    expect(retryDelayMs('POST', bad, 0, 2)).toBeUndefined();
    expect(retryDelayMs('GET', new Error('a bug'), 0, 2)).toBeUndefined();
    expect(retryDelayMs('GET', new APIConnectionError(), 1, 2, () => 0)).toBe(1000);
  });

  it('retries writes like reads, and only the methods the API has', () => {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
      expect(
        retryDelayMs(method, new APIConnectionError(), 0, 2, () => 0),
        method,
      ).toBe(500);
    }
    expect(retryDelayMs('PUT', new APIConnectionError(), 0, 2, () => 0)).toBeUndefined();
  });
});
