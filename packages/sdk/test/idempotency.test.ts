import { ERRORS, IDEMPOTENCY } from '@coinventory/contract/constants';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  type Coinventory,
  CoinventoryError,
  ConflictError,
  IdempotencyKeyInUseError,
  InsufficientQuantityError,
  ReservationNotHeldError,
} from '../src/index.js';
import { settle, useFakeClock } from './support/clock.js';
import { errorBody, makeClient, server, url, useMsw } from './support/msw.js';

useMsw();
useFakeClock();

type Verb = 'get' | 'post' | 'patch' | 'delete';
interface Seen {
  /** Fake milliseconds since the call started. */
  at: number;
  key: string | null;
  body: string;
}
type Answer = () => Response;

const item = { id: 'it-1', sku: 'S', deleted: true };
const ok: Answer = () => HttpResponse.json(item);
const failed: Answer = () =>
  HttpResponse.json(errorBody('INTERNAL_SERVER_ERROR', 'Internal server error'), { status: 500 });
const dropped: Answer = () => HttpResponse.error();
const inUse: Answer = () =>
  HttpResponse.json(errorBody('IDEMPOTENCY_KEY_IN_USE', ERRORS.IDEMPOTENCY_KEY_IN_USE.message), {
    status: 409,
    headers: { 'Retry-After': '1' },
  });

/** Serves `verb path` with `answers` in turn (the last repeats), recording each request's key, body and time. */
function serve(verb: Verb, path: string, answers: Answer[]): Seen[] {
  const start = Date.now();
  const seen: Seen[] = [];
  server.use(
    http[verb](url(path), async ({ request }) => {
      seen.push({ at: Date.now() - start, key: request.headers.get(IDEMPOTENCY.header), body: await request.text() });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)] ?? expect.fail('no answer');
      return answer();
    }),
  );
  return seen;
}

const writes: [method: string, Verb, path: string, (client: Coinventory, key?: string) => Promise<unknown>][] = [
  ['POST', 'post', '/items', (c, key) => c.items.create({ sku: 'S', title: 'T' }, { idempotencyKey: key })],
  ['PATCH', 'patch', '/items/it-1', (c, key) => c.items.update('it-1', { quantity: 1 }, { idempotencyKey: key })],
  ['DELETE', 'delete', '/items/it-1', (c, key) => c.items.delete('it-1', { idempotencyKey: key })],
  [
    'POST (adjust)',
    'post',
    '/items/it-1/adjustments',
    (c, key) => c.items.adjust('it-1', { available: -1, sold: 1, reason: 'sale' }, { idempotencyKey: key }),
  ],
  [
    'POST (reserve)',
    'post',
    '/items/it-1/reservations',
    (c, key) => c.reservations.create('it-1', { quantity: 1 }, { idempotencyKey: key }),
  ],
  [
    'POST (commit)',
    'post',
    '/reservations/r-1/commit',
    (c, key) => c.reservations.commit('r-1', { idempotencyKey: key }),
  ],
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the Idempotency-Key of every write', () => {
  it.each(writes)('%s sends a fresh random UUID with each call', async (_method, verb, path, call) => {
    const seen = serve(verb, path, [ok]);
    const client = makeClient();
    await settle(call(client));
    await settle(call(client));
    expect(seen.map((s) => s.key)).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(seen[0]?.key).not.toBe(seen[1]?.key);
  });

  it.each(writes)('%s sends the same key and body on every retry of one call', async (_method, verb, path, call) => {
    const seen = serve(verb, path, [failed, dropped, ok]);
    const { error } = await settle(call(makeClient()));
    expect(error).toBeUndefined();
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(seen[0]?.key).toMatch(UUID);
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
  });

  it.each(writes)("%s sends the caller's key, on every retry", async (_method, verb, path, call) => {
    const seen = serve(verb, path, [failed, ok]);
    await settle(call(makeClient(), 'order-1042:line-3'));
    expect(seen.map((s) => s.key)).toEqual(['order-1042:line-3', 'order-1042:line-3']);
  });

  it('sends none with a GET', async () => {
    const seen = serve('get', '/items/it-1', [ok]);
    await settle(makeClient().items.get('it-1'));
    expect(seen.map((s) => s.key)).toEqual([null]);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(IDEMPOTENCY.key.max + 1)],
    ['not printable ASCII', 'clé'],
    ['a line break', 'a\nb'],
  ])('refuses a key that is %s before sending anything', async (_case, key) => {
    const seen = serve('post', '/items', [ok]);
    const { error } = await settle(makeClient().items.create({ sku: 'S', title: 'T' }, { idempotencyKey: key }));
    expect(error).toBeInstanceOf(CoinventoryError);
    expect((error as Error).message).toContain(
      `idempotencyKey must be ${IDEMPOTENCY.key.min} to ${IDEMPOTENCY.key.max} printable ASCII characters`,
    );
    expect(seen).toEqual([]);
  });

  it('takes the longest key the API allows', async () => {
    const seen = serve('post', '/items', [ok]);
    const key = '~'.repeat(IDEMPOTENCY.key.max);
    await settle(makeClient().items.create({ sku: 'S', title: 'T' }, { idempotencyKey: key }));
    expect(seen.map((s) => s.key)).toEqual([key]);
  });
});

describe('retrying writes safely', () => {
  it('retries a POST after a 500, and resolves to the answer of the retry', async () => {
    const seen = serve('post', '/items', [failed, ok]);
    const { value, error } = await settle(makeClient().items.create({ sku: 'S', title: 'T' }));
    expect(error).toBeUndefined();
    expect(value).toEqual(item);
    expect(seen.map((s) => s.at)).toEqual([0, 500]);
  });

  it('retries a POST after a dropped connection, with the same key', async () => {
    const seen = serve('post', '/items', [dropped, ok]);
    const { value } = await settle(makeClient().items.create({ sku: 'S', title: 'T' }));
    expect(value).toEqual(item);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.key).toBe(seen[0]?.key);
  });

  it('retries 409 IDEMPOTENCY_KEY_IN_USE after Retry-After, with the same key', async () => {
    const seen = serve('patch', '/items/it-1', [inUse, inUse, ok]);
    const { value, error } = await settle(makeClient().items.update('it-1', { quantity: 2 }));
    expect(error).toBeUndefined();
    expect(value).toEqual(item);
    // max(Retry-After 1 s, backoff): 1 s, then 1 s (the 1 s backoff).
    expect(seen.map((s) => s.at)).toEqual([0, 1000, 2000]);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
  });

  it('throws IdempotencyKeyInUseError, not ConflictError, once the retries are used up', async () => {
    const seen = serve('post', '/items', [inUse]);
    const { error } = await settle(makeClient().items.create({ sku: 'S', title: 'T' }));
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect(error).not.toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(seen).toHaveLength(3);
  });

  it('does not retry 409 CONFLICT (a SKU in use): repeating the request cannot help', async () => {
    const seen = serve('post', '/items', [
      () => HttpResponse.json(errorBody('CONFLICT', ERRORS.CONFLICT.message), { status: 409 }),
      ok,
    ]);
    const { error } = await settle(makeClient().items.create({ sku: 'S', title: 'T' }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['INSUFFICIENT_QUANTITY', '/items/it-1/adjustments', InsufficientQuantityError],
    ['RESERVATION_NOT_HELD', '/reservations/r-1/release', ReservationNotHeldError],
  ] as const)('does not retry 409 %s: the same request gets the same answer', async (code, path, ErrorClass) => {
    const seen = serve('post', path, [
      () => HttpResponse.json(errorBody(code, ERRORS[code].message), { status: 409 }),
      ok,
    ]);
    const client = makeClient();
    const call: Promise<unknown> = path.startsWith('/items')
      ? client.items.adjust('it-1', { available: -1, reason: 'lost' })
      : client.reservations.release('r-1');
    const { error } = await settle(call);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ConflictError);
    expect(seen).toHaveLength(1);
  });

  it('does not retry a write when maxRetries is 0', async () => {
    const seen = serve('delete', '/items/it-1', [failed, ok]);
    await settle(makeClient().items.delete('it-1', { maxRetries: 0 }));
    expect(seen).toHaveLength(1);
  });

  it('sends the key with a write sent through client.request, too', async () => {
    const seen = serve('post', '/items', [failed, ok]);
    const body = { sku: 'S', title: 'T' };
    await settle(makeClient().request('items.create', { body }, { idempotencyKey: 'raw-1' }));
    expect(seen.map((s) => s.key)).toEqual(['raw-1', 'raw-1']);
  });
});
