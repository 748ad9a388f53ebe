import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs } from '../../../src/backoff.js';
import { loadEnv } from '../../../src/env.js';
import {
  DeliveryError,
  type MarketplaceAdapter,
  type MarketplaceRequest,
} from '../../../src/modules/marketplace/adapters/adapter.js';
import { httpMarketplaceAdapter } from '../../../src/modules/marketplace/adapters/http.js';
import { FakeMarketplace, MARKETPLACE_BASE, MARKETPLACE_TOKEN, wait } from '../../support/sync.js';

describe('backoffMs', () => {
  it('doubles from the base with each attempt (no jitter when random gives 1)', () => {
    const one = () => 1;
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffMs(attempt, 100, 1_000_000, one))).toEqual([
      100, 200, 400, 800, 1600, 3200,
    ]);
  });

  it('treats attempt 0 (and below) as the first', () => {
    expect(backoffMs(0, 100, 10_000, () => 1)).toBe(100);
    expect(backoffMs(-3, 100, 10_000, () => 1)).toBe(100);
  });

  it('is capped at the maximum, however many attempts', () => {
    const one = () => 1;
    expect(backoffMs(5, 100, 1000, one)).toBe(1000);
    expect(backoffMs(50, 100, 1000, one)).toBe(1000);
    expect(backoffMs(5000, 100, 1000, one)).toBe(1000);
    // Half of the capped delay is the floor of the jitter.
    expect(backoffMs(50, 100, 1000, () => 0)).toBe(500);
  });

  it('keeps half the delay fixed and jitters the other half: [exp/2, exp]', () => {
    expect(backoffMs(3, 100, 10_000, () => 0)).toBe(200);
    expect(backoffMs(3, 100, 10_000, () => 0.5)).toBe(300);
    expect(backoffMs(3, 100, 10_000, () => 0.25)).toBe(250);
    for (let attempt = 1; attempt <= 12; attempt++) {
      const exponential = Math.min(60_000, 1000 * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const value = backoffMs(attempt, 1000, 60_000);
        expect(value).toBeGreaterThanOrEqual(exponential / 2);
        expect(value).toBeLessThanOrEqual(exponential);
      }
    }
  });

  it('is deterministic with an injected random', () => {
    const sequence = [0.1, 0.9, 0.3];
    const run = () => {
      let i = 0;
      const random = () => sequence[i++ % sequence.length] ?? 0;
      return [1, 2, 3].map((attempt) => backoffMs(attempt, 1000, 60_000, random));
    };
    expect(run()).toEqual([550, 1900, 2600]);
    expect(run()).toEqual(run());
  });

  it('uses Math.random by default, so two series differ', () => {
    const series = () => Array.from({ length: 20 }, () => backoffMs(10, 1000, 1_000_000));
    expect(series()).not.toEqual(series());
  });
});

describe('httpMarketplaceAdapter', () => {
  const marketplace = new FakeMarketplace();
  beforeAll(() => marketplace.listen());
  afterEach(() => marketplace.reset());
  afterAll(() => marketplace.close());

  const meta: MarketplaceRequest = {
    marketplaceListingId: 'L-1001',
    idempotencyKey: '0b7c5d2e-9f3a-4e1b-8c6d-2a4f6e8b0c1d',
    sequence: 7,
    organizationId: '11111111-2222-4333-8444-555555555555',
  };
  const adapter = (options: { token?: string; timeoutMs?: number } = {}): MarketplaceAdapter =>
    httpMarketplaceAdapter({
      baseUrl: `${MARKETPLACE_BASE}/`,
      token: options.token ?? MARKETPLACE_TOKEN,
      timeoutMs: options.timeoutMs ?? 2000,
    });

  /** The DeliveryError a call rejects with (fails the test if it resolves, or rejects with anything else). */
  async function refusal(promise: Promise<unknown>): Promise<DeliveryError> {
    const error: unknown = await promise.then(
      () => new Error('expected a DeliveryError, but the call succeeded'),
      (reason: unknown) => reason,
    );
    if (!(error instanceof DeliveryError)) throw error;
    return error;
  }

  it('PUTs the quantity with the sequence, idempotency key and bearer token', async () => {
    await adapter().setQuantity({ ...meta, quantity: 3 });
    expect(marketplace.calls).toHaveLength(1);
    const [call] = marketplace.calls;
    expect(call?.method).toBe('PUT');
    expect(call?.path).toBe('/api/listings/L-1001/quantity');
    expect(call?.body).toEqual({ quantity: 3, sequence: 7 });
    expect(call?.headers['idempotency-key']).toBe(meta.idempotencyKey);
    expect(call?.headers['x-coinventory-sequence']).toBe('7');
    expect(call?.headers.authorization).toBe(`Bearer ${MARKETPLACE_TOKEN}`);
    expect(call?.headers['content-type']).toBe('application/json');
  });

  it('DELETEs the listing without a body', async () => {
    await adapter().deleteListing(meta);
    expect(marketplace.calls).toHaveLength(1);
    const [call] = marketplace.calls;
    expect(call?.method).toBe('DELETE');
    expect(call?.path).toBe('/api/listings/L-1001');
    expect(call?.body).toBeNull();
    expect(call?.headers['idempotency-key']).toBe(meta.idempotencyKey);
    expect(call?.headers['x-coinventory-sequence']).toBe('7');
    expect(call?.headers['content-type']).toBeUndefined();
  });

  it('sends no Authorization header when no token is configured', async () => {
    const anonymous = httpMarketplaceAdapter({ baseUrl: MARKETPLACE_BASE, timeoutMs: 2000 });
    await anonymous.setQuantity({ ...meta, quantity: 1 });
    expect(marketplace.calls[0]?.headers.authorization).toBeUndefined();
  });

  it('encodes the listing id in the path', async () => {
    await adapter().setQuantity({ ...meta, marketplaceListingId: 'a/b c', quantity: 1 });
    expect(marketplace.calls[0]?.path).toBe('/api/listings/a%2Fb%20c/quantity');
    expect(marketplace.calls[0]?.listingId).toBe('a/b c');
  });

  it.each([200, 201, 202, 204])('accepts %i for PUT and DELETE', async (status) => {
    marketplace.behaviour = () => new HttpResponse(null, { status });
    await expect(adapter().setQuantity({ ...meta, quantity: 2 })).resolves.toEqual({ status });
    await expect(adapter().deleteListing(meta)).resolves.toEqual({ status });
    expect(marketplace.calls).toHaveLength(2);
  });

  it.each([404, 410])('counts %i on DELETE as success (already gone)', async (status) => {
    marketplace.behaviour = () => HttpResponse.text('gone', { status });
    await expect(adapter().deleteListing(meta)).resolves.toEqual({ status });
  });

  it.each([404, 410, 400, 401, 403, 409, 422])('treats %i on PUT as a permanent failure', async (status) => {
    marketplace.behaviour = () => HttpResponse.text('no such listing', { status });
    const error = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(error.retryable).toBe(false);
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.message).toBe(`PUT /listings/L-1001/quantity: HTTP ${status} no such listing`);
  });

  it.each([400, 401, 403, 409])('treats %i on DELETE as a permanent failure', async (status) => {
    marketplace.behaviour = () => new HttpResponse(null, { status });
    const error = await refusal(adapter().deleteListing(meta));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(`DELETE /listings/L-1001: HTTP ${status}`);
  });

  it.each([429, 500, 502, 503, 504])('retries %i, without a Retry-After when none is sent', async (status) => {
    marketplace.behaviour = () => HttpResponse.text('busy', { status });
    const put = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(put.retryable).toBe(true);
    expect(put.retryAfterMs).toBeUndefined();
    expect(put.message).toBe(`PUT /listings/L-1001/quantity: HTTP ${status} busy`);
    const del = await refusal(adapter().deleteListing(meta));
    expect(del.retryable).toBe(true);
    expect(del.message).toBe(`DELETE /listings/L-1001: HTTP ${status} busy`);
  });

  it('keeps at most 200 characters of the response body in the error', async () => {
    marketplace.behaviour = () => HttpResponse.text('x'.repeat(1000), { status: 500 });
    const error = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(error.message).toBe(`PUT /listings/L-1001/quantity: HTTP 500 ${'x'.repeat(200)}`);
  });

  it('parses Retry-After given in seconds on 429 and 503', async () => {
    marketplace.behaviour = () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '7' } });
    expect((await refusal(adapter().setQuantity({ ...meta, quantity: 2 }))).retryAfterMs).toBe(7000);
    marketplace.behaviour = () => new HttpResponse(null, { status: 503, headers: { 'Retry-After': '0' } });
    expect((await refusal(adapter().deleteListing(meta))).retryAfterMs).toBe(0);
    marketplace.behaviour = () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '1.5' } });
    expect((await refusal(adapter().setQuantity({ ...meta, quantity: 2 }))).retryAfterMs).toBe(1500);
  });

  it('parses Retry-After given as an HTTP date', async () => {
    // HTTP dates have whole seconds: 30 s ahead, truncated, is between 29 and 30 s away.
    const at = new Date(Date.now() + 30_000).toUTCString();
    marketplace.behaviour = () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': at } });
    const error = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeGreaterThan(28_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('reads an HTTP date in the past as "now", and ignores a Retry-After it cannot read', async () => {
    marketplace.behaviour = () =>
      new HttpResponse(null, { status: 503, headers: { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' } });
    expect((await refusal(adapter().setQuantity({ ...meta, quantity: 2 }))).retryAfterMs).toBe(0);
    marketplace.behaviour = () => new HttpResponse(null, { status: 503, headers: { 'Retry-After': 'soon-ish' } });
    const error = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('ignores Retry-After on a permanent failure', async () => {
    marketplace.behaviour = () => new HttpResponse(null, { status: 400, headers: { 'Retry-After': '5' } });
    const error = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(error.retryable).toBe(false);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('retries a network error', async () => {
    marketplace.behaviour = () => HttpResponse.error();
    const error = await refusal(adapter().setQuantity({ ...meta, quantity: 2 }));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.message).toMatch(/^network error: /);
    const del = await refusal(adapter().deleteListing(meta));
    expect(del.retryable).toBe(true);
    expect(del.message).toMatch(/^network error: /);
  });

  it('retries a timeout: a marketplace slower than timeoutMs is abandoned at timeoutMs', async () => {
    marketplace.behaviour = async () => {
      await wait(3000);
      return new HttpResponse(null, { status: 200 });
    };
    const started = Date.now();
    const error = await refusal(adapter({ timeoutMs: 150 }).setQuantity({ ...meta, quantity: 2 }));
    const elapsed = Date.now() - started;
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('timed out after 150 ms');
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2500);
  });

  it('succeeds when the marketplace answers within timeoutMs', async () => {
    marketplace.behaviour = async () => {
      await wait(50);
      return new HttpResponse(null, { status: 204 });
    };
    await expect(adapter({ timeoutMs: 1000 }).deleteListing(meta)).resolves.toEqual({ status: 204 });
  });
});

describe('the sync settings', () => {
  it('give a transiently failing job 24 hours and open the circuit after 5 failures, by default', () => {
    expect(loadEnv({})).toMatchObject({
      SYNC_GIVE_UP_SECONDS: 86_400,
      SYNC_CIRCUIT_FAILURES: 5,
      SYNC_CIRCUIT_OPEN_MS: 30_000,
    });
  });

  it('refuse SYNC_MAX_ATTEMPTS, which no longer means anything, naming what replaced it', () => {
    expect(() => loadEnv({ SYNC_MAX_ATTEMPTS: '3' })).toThrow(
      /^Invalid configuration:\n {2}SYNC_MAX_ATTEMPTS: no longer read; a job failing transiently is now retried until SYNC_GIVE_UP_SECONDS/,
    );
  });
});
