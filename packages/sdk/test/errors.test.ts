import { randomUUID } from 'node:crypto';
import { ERRORS } from '@coinventory/contract/constants';
import { HttpResponse, http, type JsonBodyType, passthrough } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';
import { BASE_URL, errorBody, makeClient, server, url, useMsw } from './support/msw.js';
import { type RunningServer, startServer, stopServer, thrown } from './support/server.js';

useMsw();

/** Answers GET /me with `status` and the API's error body for `code`, and returns what the SDK threw. */
async function errorFor(status: number, body: JsonBodyType, headers: Record<string, string> = {}): Promise<unknown> {
  server.use(
    http.get(url('/me'), () =>
      typeof body === 'string'
        ? new HttpResponse(body, { status, headers })
        : HttpResponse.json(body, { status, headers: { 'X-Request-Id': 'req_abc', ...headers } }),
    ),
  );
  return makeClient({ maxRetries: 0 })
    .me()
    .then(
      () => expect.fail('expected the call to throw'),
      (error: unknown) => error,
    );
}

describe('error mapping', () => {
  const cases = [
    [400, 'BAD_REQUEST', sdk.BadRequestError],
    [401, 'UNAUTHORIZED', sdk.AuthenticationError],
    [403, 'FORBIDDEN', sdk.PermissionDeniedError],
    [404, 'NOT_FOUND', sdk.NotFoundError],
    [409, 'CONFLICT', sdk.ConflictError],
    [409, 'IDEMPOTENCY_KEY_IN_USE', sdk.IdempotencyKeyInUseError],
    [409, 'INSUFFICIENT_QUANTITY', sdk.InsufficientQuantityError],
    [409, 'RESERVATION_NOT_HELD', sdk.ReservationNotHeldError],
    [412, 'PRECONDITION_FAILED', sdk.PreconditionFailedError],
    [413, 'PAYLOAD_TOO_LARGE', sdk.PayloadTooLargeError],
    [429, 'TOO_MANY_REQUESTS', sdk.RateLimitError],
    [500, 'INTERNAL_SERVER_ERROR', sdk.InternalServerError],
  ] as const;

  it.each(cases)('%i %s → %O', async (status, code, ErrorClass) => {
    const error = await errorFor(status, errorBody(code, ERRORS[code].message));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(sdk.APIError);
    expect(error).toBeInstanceOf(sdk.CoinventoryError);
    expect(error).toBeInstanceOf(Error);
    // The 409s of a conflict with the data (not enough quantity, a reservation no longer held) are ConflictErrors too.
    const conflict = status === 409 && code !== 'IDEMPOTENCY_KEY_IN_USE';
    for (const [, , Other] of cases) {
      if (Other === ErrorClass || (conflict && Other === sdk.ConflictError)) continue;
      expect(error).not.toBeInstanceOf(Other);
    }
    if (conflict) expect(error).toBeInstanceOf(sdk.ConflictError);
    expect(error).toMatchObject({
      name: ErrorClass.name,
      status,
      code,
      apiMessage: ERRORS[code].message,
      issues: undefined,
      requestId: 'req_abc',
      request: { method: 'GET', url: url('/me'), baseUrl: BASE_URL },
    });
    // A 401 says what was refused and a 429 when to retry (see error-hints.test.ts); a 404 what was not found (a
    // Coinventory API never answers 404 to GET /me: see "404 hints"). Everything else keeps the API's message.
    const { hint, message } = error as sdk.APIError;
    expect(hint === undefined, String(hint)).toBe(![401, 404, 429].includes(status));
    if (status !== 404) expect(message).toBe(hint ? `${ERRORS[code].message}. ${hint}` : ERRORS[code].message);
  });

  it('carries the validation issues of a 400', async () => {
    const issues = [{ message: 'body.title: Required' }, { message: 'body.sku: must be at least 1 character' }];
    const error = await errorFor(400, errorBody('BAD_REQUEST', ERRORS.BAD_REQUEST.message, issues));
    expect(error).toBeInstanceOf(sdk.BadRequestError);
    expect((error as sdk.BadRequestError).issues).toEqual(issues);
  });

  it('keeps the headers and body without putting them in the logged output', async () => {
    const error = (await errorFor(404, errorBody('NOT_FOUND', 'Not found'), { 'X-Extra': 'yes' })) as sdk.APIError;
    expect(error.headers.get('x-extra')).toBe('yes');
    expect(error.body).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
    expect(Object.keys(error)).not.toContain('headers');
    expect(Object.keys(error)).toEqual(expect.arrayContaining(['status', 'code', 'issues', 'requestId', 'apiMessage']));
    // What the message already says, derived from the request, stays out of the logged output too.
    for (const derived of ['request', 'resource', 'hint']) expect(Object.keys(error)).not.toContain(derived);
    expect(error.request).toBeDefined();
  });

  it('maps 502, 503 and 504 to InternalServerError and other statuses to APIError', async () => {
    for (const status of [502, 503, 504]) {
      expect(await errorFor(status, 'Bad gateway')).toBeInstanceOf(sdk.InternalServerError);
    }
    const error = await errorFor(405, errorBody('METHOD_NOT_ALLOWED', ERRORS.METHOD_NOT_ALLOWED.message));
    expect(error).toBeInstanceOf(sdk.APIError);
    expect(error).not.toBeInstanceOf(sdk.BadRequestError);
    expect(error).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('chooses by code only for the codes that have their own class', () => {
    const conflict = sdk.APIError.from(409, errorBody('SOMETHING_NEW', 'x'), new Headers());
    expect(conflict).toBeInstanceOf(sdk.ConflictError);
    const odd = sdk.APIError.from(400, errorBody('constructor', 'x'), new Headers());
    expect(odd).toBeInstanceOf(sdk.BadRequestError);
  });

  it("uses a proxy's non-JSON body as the message", async () => {
    const error = await errorFor(502, '<html>Bad gateway</html>');
    expect(error).toMatchObject({
      status: 502,
      code: undefined,
      message: '<html>Bad gateway</html>',
      apiMessage: '<html>Bad gateway</html>',
    });
    const empty = await errorFor(503, '');
    expect(empty).toMatchObject({ status: 503, message: '503 status code', apiMessage: '503 status code' });
  });

  it('reads Retry-After on a 429, as seconds or as an HTTP date', async () => {
    const seconds = await errorFor(429, errorBody('TOO_MANY_REQUESTS', 'Too many requests'), { 'Retry-After': '7' });
    expect((seconds as sdk.RateLimitError).retryAfter).toBe(7);
    const date = new Date(Date.now() + 30_000).toUTCString();
    const dated = await errorFor(429, errorBody('TOO_MANY_REQUESTS', 'Too many requests'), { 'Retry-After': date });
    expect((dated as sdk.RateLimitError).retryAfter).toBeGreaterThanOrEqual(29);
    expect((dated as sdk.RateLimitError).retryAfter).toBeLessThanOrEqual(31);
    const none = await errorFor(429, errorBody('TOO_MANY_REQUESTS', 'Too many requests'));
    expect((none as sdk.RateLimitError).retryAfter).toBeUndefined();
  });

  it('throws APIConnectionError, with the cause, when no response arrives', async () => {
    server.use(http.get(url('/me'), () => HttpResponse.error()));
    const error = await makeClient({ maxRetries: 0 })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.APIConnectionError);
    expect(error).not.toBeInstanceOf(sdk.APIError);
    expect(error).toMatchObject({ name: 'APIConnectionError', message: expect.stringMatching(/^Connection error/) });
    expect((error as sdk.APIConnectionError).cause).toBeInstanceOf(Error);
  });
});

describe("messages: what the answer and the request add to the API's message", () => {
  const issues = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ message: `body.field${i}: Number must be greater than or equal to 0` }));

  it("a 400 quotes its first three issues and counts the rest; apiMessage is the API's own", async () => {
    const error = (await errorFor(
      400,
      errorBody('BAD_REQUEST', ERRORS.BAD_REQUEST.message, issues(5)),
    )) as sdk.APIError;
    expect(error).toBeInstanceOf(sdk.BadRequestError);
    expect(error.message).toBe(
      'Invalid input data: body.field0: Number must be greater than or equal to 0; body.field1: Number must be greater than or equal to 0; body.field2: Number must be greater than or equal to 0 (and 2 more)',
    );
    expect(error.apiMessage).toBe(ERRORS.BAD_REQUEST.message);
    expect(error.issues).toEqual(issues(5));
    expect(error.hint).toBeUndefined();
  });

  it('a 400 with three issues or fewer quotes them all, without a count', async () => {
    const one = await errorFor(
      400,
      errorBody('BAD_REQUEST', ERRORS.BAD_REQUEST.message, [{ message: 'query.limit: x' }]),
    );
    expect((one as sdk.APIError).message).toBe('Invalid input data: query.limit: x');
    const three = (await errorFor(
      400,
      errorBody('BAD_REQUEST', ERRORS.BAD_REQUEST.message, issues(3)),
    )) as sdk.APIError;
    expect(three.message).not.toContain('more)');
    expect(three.message.split('; ')).toHaveLength(3);
  });

  it('a 404 names the object, read from the route, and the request', async () => {
    const id = randomUUID();
    const notFound = () => HttpResponse.json(errorBody('NOT_FOUND', ERRORS.NOT_FOUND.message), { status: 404 });
    server.use(
      http.get(url('/items/:id'), notFound),
      http.delete(url('/items/:id'), notFound),
      http.get(url('/items/:id/valuations'), notFound),
      http.get(url('/webhook-endpoints/:id/deliveries'), notFound),
      http.get(url('/categories/:id'), notFound),
    );
    const client = makeClient({ maxRetries: 0 });
    const item = (await thrown(client.items.get(id))) as sdk.NotFoundError;
    expect(item).toBeInstanceOf(sdk.NotFoundError);
    expect(item.message).toBe(`Not found: item ${id} (GET /v1/items/${id})`);
    expect(item).toMatchObject({
      apiMessage: ERRORS.NOT_FOUND.message,
      resource: { type: 'item', id },
      request: { method: 'GET', url: url(`/items/${id}`), baseUrl: BASE_URL },
      hint: undefined,
    });
    expect((await thrown(client.items.delete(id))) as Error).toHaveProperty(
      'message',
      `Not found: item ${id} (DELETE /v1/items/${id})`,
    );
    expect((await thrown(client.items.valuations(id))) as Error).toHaveProperty(
      'message',
      `Not found: item ${id} (GET /v1/items/${id}/valuations)`,
    );
    const deliveries = (await thrown(client.webhookEndpoints.deliveries(id))) as sdk.NotFoundError;
    expect(deliveries.message).toMatch(new RegExp(`^Not found: webhook endpoint ${id} \\(GET /v1/webhook-endpoints/`));
    expect(deliveries.resource).toEqual({ type: 'webhook endpoint', id });
    expect((await thrown(client.categories.get(id))) as sdk.NotFoundError).toHaveProperty('resource', {
      type: 'category',
      id,
    });
  });

  it('names the object on other statuses too, without changing their message', async () => {
    const id = randomUUID();
    server.use(
      http.patch(url('/items/:id'), () =>
        HttpResponse.json(errorBody('PRECONDITION_FAILED', ERRORS.PRECONDITION_FAILED.message), { status: 412 }),
      ),
    );
    const error = (await thrown(makeClient({ maxRetries: 0 }).items.update(id, { quantity: 1 }))) as sdk.APIError;
    expect(error).toBeInstanceOf(sdk.PreconditionFailedError);
    expect(error.message).toBe(ERRORS.PRECONDITION_FAILED.message);
    expect(error.resource).toEqual({ type: 'item', id });
  });

  it('an error built without a request says what the body says', () => {
    const error = sdk.APIError.from(404, errorBody('NOT_FOUND', 'Not found'), new Headers());
    expect(error).toMatchObject({ message: 'Not found', apiMessage: 'Not found', request: undefined, hint: undefined });
    const mine = new sdk.BadRequestError({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Invalid input data',
      issues: [{ message: 'body.title: Required' }],
      headers: new Headers(),
      body: undefined,
    });
    expect(mine).toMatchObject({
      message: 'Invalid input data: body.title: Required',
      apiMessage: 'Invalid input data',
    });
  });
});

describe('404 hints', () => {
  const notFound = () => HttpResponse.json(errorBody('NOT_FOUND', ERRORS.NOT_FOUND.message), { status: 404 });

  it('a route every Coinventory API answers, or an answer that is not a Coinventory error: check the base URL', async () => {
    server.use(
      http.get(url('/items'), notFound),
      http.get(url('/items/:id'), () => new HttpResponse('<h1>404</h1>', { status: 404 })),
    );
    const client = makeClient({ maxRetries: 0 });
    const hint = `Check the base URL: ${BASE_URL} does not answer like a Coinventory API.`;
    const list = (await thrown(client.items.list())) as sdk.NotFoundError;
    expect(list).toMatchObject({ hint, message: `Not found (GET /v1/items). ${hint}` });
    const id = randomUUID();
    const html = (await thrown(client.items.get(id))) as sdk.NotFoundError;
    expect(html).toMatchObject({ code: undefined, apiMessage: '<h1>404</h1>', hint });
    // With the base URL in doubt, the item is not said to be missing.
    expect(html.message).toBe(`<h1>404</h1> (GET /v1/items/${id}). ${hint}`);
  });

  it('a path that is no route of the API', () => {
    const request = { method: 'GET', url: url('/no-such-route?x=1'), baseUrl: BASE_URL };
    const error = sdk.APIError.from(404, errorBody('NOT_FOUND', 'Not found'), new Headers(), request);
    expect(error.hint).toBe(`GET /no-such-route is not an API route this SDK knows; see ${BASE_URL}/openapi.json.`);
    expect(error.message).toBe(`Not found (GET /v1/no-such-route). ${error.hint}`);
    expect(error.request).toBe(request);
  });
});

describe('reading the route from the path', () => {
  it('a literal segment is not taken for an id: /items/batch is not item "batch"', () => {
    const request = { method: 'GET', url: url('/items/batch'), baseUrl: BASE_URL };
    const error = sdk.APIError.from(404, errorBody('NOT_FOUND', 'Not found'), new Headers(), request);
    expect(error.resource).toBeUndefined();
    expect(error.message).toBe(
      `Not found (GET /v1/items/batch). Check the base URL: ${BASE_URL} does not answer like a Coinventory API.`,
    );
  });

  it('an id is shown decoded, as the caller gave it', () => {
    const request = { method: 'GET', url: url('/items/a%20b%2Fc'), baseUrl: BASE_URL };
    const error = sdk.APIError.from(404, errorBody('NOT_FOUND', 'Not found'), new Headers(), request);
    expect(error.resource).toEqual({ type: 'item', id: 'a b/c' });
  });
});

describe('against the real server', () => {
  let running: RunningServer | undefined;

  beforeAll(async () => {
    running = await startServer();
  });
  afterAll(async () => {
    await stopServer(running);
  });
  // msw refuses requests it has no handler for: these go through to the server.
  beforeEach(() => {
    server.use(http.all(`${new URL(running?.baseUrl ?? BASE_URL).origin}/*`, () => passthrough()));
  });

  const client = (baseUrl = running?.baseUrl) =>
    new sdk.Coinventory({ apiKey: running?.apiKey ?? '', baseUrl, maxRetries: 0 });

  it('a base URL without /v1: the server answers 404 to everything, and the message says what to change', async () => {
    const origin = new URL(running?.baseUrl ?? '').origin;
    const hint = `The base URL ${origin} does not end in /v1; did you mean ${origin}/v1?`;
    const list = await thrown(client(origin).items.list());
    expect(list).toBeInstanceOf(sdk.NotFoundError);
    expect(list).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      apiMessage: ERRORS.NOT_FOUND.message,
      hint,
      message: `Not found (GET /items). ${hint}`,
    });
    const id = randomUUID();
    const item = (await thrown(client(`${origin}/`).items.get(id))) as sdk.NotFoundError;
    expect(item.message).toBe(`Not found (GET /items/${id}). ${hint}`);
    expect(item.resource).toEqual({ type: 'item', id });
  });

  it("an unknown id: the object and the request, with the API's exact message in apiMessage", async () => {
    const id = randomUUID();
    const error = await thrown(client().items.get(id));
    expect(error).toBeInstanceOf(sdk.NotFoundError);
    expect(error).toBeInstanceOf(sdk.APIError);
    expect(error).toMatchObject({
      apiMessage: 'Not found',
      message: `Not found: item ${id} (GET /v1/items/${id})`,
      hint: undefined,
    });
  });

  it("a 400 quotes the server's issues", async () => {
    const error = (await thrown(
      client().items.create({ sku: '', title: '', quantity: -1, valueInCents: -1, acquisitionPriceInCents: -1 }),
    )) as sdk.BadRequestError;
    expect(error).toBeInstanceOf(sdk.BadRequestError);
    expect(error.apiMessage).toBe('Invalid input data');
    expect(error.issues).toHaveLength(5);
    expect(error.message).toBe(
      'Invalid input data: body.sku: must be at least 1 character; body.title: must be at least 1 character; body.quantity: Number must be greater than or equal to 0 (and 2 more)',
    );
  });
});

describe('instanceof', () => {
  it('orders the hierarchy: timeout is a connection error; abort is not', () => {
    expect(new sdk.APIConnectionTimeoutError(5)).toBeInstanceOf(sdk.APIConnectionError);
    expect(new sdk.APIUserAbortError()).not.toBeInstanceOf(sdk.APIConnectionError);
    expect(new sdk.APIUserAbortError()).toBeInstanceOf(sdk.CoinventoryError);
    expect(new sdk.CoinventoryError('x')).not.toBeInstanceOf(sdk.APIError);
    expect({}).not.toBeInstanceOf(sdk.CoinventoryError);
    expect((null as unknown) instanceof sdk.CoinventoryError).toBe(false);
  });

  it('answers by brand, so an error from another copy of the SDK matches', () => {
    const foreign = Object.create(
      Object.assign(Object.create(Error.prototype), {
        [Symbol.for('coinventory.error.NotFoundError')]: true,
        [Symbol.for('coinventory.error.APIError')]: true,
        [Symbol.for('coinventory.error.CoinventoryError')]: true,
      }),
    ) as unknown;
    expect(foreign).toBeInstanceOf(sdk.NotFoundError);
    expect(foreign).toBeInstanceOf(sdk.APIError);
    expect(foreign).not.toBeInstanceOf(sdk.ConflictError);
  });

  it("keeps a user's own subclass to the ordinary prototype check", () => {
    class MyNotFound extends sdk.NotFoundError {}
    const base = sdk.APIError.from(404, errorBody('NOT_FOUND', 'Not found'), new Headers());
    expect(base).toBeInstanceOf(sdk.NotFoundError);
    expect(base).not.toBeInstanceOf(MyNotFound);
    const mine = new MyNotFound({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Not found',
      issues: undefined,
      headers: new Headers(),
      body: undefined,
    });
    expect(mine).toBeInstanceOf(MyNotFound);
    expect(mine).toBeInstanceOf(sdk.NotFoundError);
  });
});
