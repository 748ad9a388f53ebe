import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from '../src/index.js';
import { outcomeOf, useFakeClock } from './support/clock.js';
import { makeClient, server, url, useMsw } from './support/msw.js';

useMsw();
useFakeClock();

/**
 * A server that never answers `method path`, recording when each attempt arrived (fake ms since start) and, in
 * `keys`, the Idempotency-Key each one carried.
 */
function hang(method: 'get' | 'post', path: string, keys: (string | null)[] = []): number[] {
  const start = Date.now();
  const times: number[] = [];
  server.use(
    http[method](url(path), async ({ request }) => {
      times.push(Date.now() - start);
      keys.push(request.headers.get('idempotency-key'));
      await delay('infinite');
      return HttpResponse.json({});
    }),
  );
  return times;
}

describe('timeouts', () => {
  it('ends an attempt after timeoutMs (default 60 s) with APIConnectionTimeoutError', async () => {
    const times = hang('get', '/me');
    const outcome = outcomeOf(makeClient({ maxRetries: 0 }).me());
    await vi.advanceTimersByTimeAsync(59_999);
    expect(times).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = await outcome;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ message: 'Request timed out after 60000 ms.' });
  });

  it('gives each retry of a GET its own timeout', async () => {
    const times = hang('get', '/items/it-1');
    const outcome = outcomeOf(makeClient({ timeoutMs: 1_000 }).items.get('it-1'));
    await vi.runAllTimersAsync();
    expect((await outcome).error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(times).toEqual([0, 1_500, 3_500]);
  });

  it('retries a timed-out POST, which may have been applied, with the same Idempotency-Key', async () => {
    const keys: (string | null)[] = [];
    const times = hang('post', '/items', keys);
    const outcome = outcomeOf(makeClient({ timeoutMs: 1_000 }).items.create({ sku: 'S', title: 'T' }));
    await vi.runAllTimersAsync();
    expect((await outcome).error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(times).toEqual([0, 1_500, 3_500]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes a per-call timeoutMs', async () => {
    hang('get', '/me');
    const outcome = outcomeOf(makeClient({ maxRetries: 0 }).me({ timeoutMs: 250 }));
    await vi.advanceTimersByTimeAsync(250);
    expect((await outcome).error).toMatchObject({ message: 'Request timed out after 250 ms.' });
  });

  it('covers reading the body, not only the headers', async () => {
    server.use(
      http.get(
        url('/me'),
        () =>
          new HttpResponse(
            new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode('{"organiz'));
              },
            }),
            { headers: { 'Content-Type': 'application/json' } },
          ),
      ),
    );
    const outcome = outcomeOf(makeClient({ maxRetries: 0, timeoutMs: 500 }).me());
    await vi.advanceTimersByTimeAsync(500);
    expect((await outcome).error).toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe('AbortSignal', () => {
  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const times = hang('get', '/me');
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    const { error } = await outcomeOf(makeClient().me({ signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toMatchObject({ message: 'shutting down' });
    expect(times).toEqual([]);
  });

  it('aborts a request in flight with APIUserAbortError, and does not retry it', async () => {
    const times = hang('get', '/items/it-1');
    const controller = new AbortController();
    const outcome = outcomeOf(makeClient().items.get('it-1', { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    const { error } = await outcome;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    await vi.runAllTimersAsync();
    expect(times).toEqual([0]);
  });

  it('aborts every page of an iteration', async () => {
    server.use(
      http.get(url('/items'), ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return HttpResponse.json({ items: [{ id: `i${page}` }], page, limit: 1, hasMore: true });
      }),
    );
    const controller = new AbortController();
    const seen: string[] = [];
    const walk = async () => {
      for await (const item of makeClient().items.list({ limit: 1 }, { signal: controller.signal })) {
        seen.push(item.id);
        if (seen.length === 3) controller.abort();
      }
    };
    const { error } = await outcomeOf(walk());
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual(['i1', 'i2', 'i3']);
  });

  it('leaves no timer or listener behind after a call', async () => {
    server.use(http.get(url('/me'), () => HttpResponse.json({})));
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await makeClient().me({ signal: controller.signal });
    expect(vi.getTimerCount()).toBe(0);
    expect(remove).toHaveBeenCalledTimes(add.mock.calls.length);
  });
});
