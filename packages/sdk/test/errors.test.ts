import { ERRORS } from '@coinventory/contract/constants';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';
import { errorBody, makeClient, server, url, useMsw } from './support/msw.js';

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
    for (const [, , Other] of cases) if (Other !== ErrorClass) expect(error).not.toBeInstanceOf(Other);
    expect(error).toMatchObject({
      name: ErrorClass.name,
      status,
      code,
      message: ERRORS[code].message,
      issues: undefined,
      requestId: 'req_abc',
    });
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
    expect(Object.keys(error)).toEqual(expect.arrayContaining(['status', 'code', 'issues', 'requestId']));
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
    expect(error).toMatchObject({ status: 502, code: undefined, message: '<html>Bad gateway</html>' });
    const empty = await errorFor(503, '');
    expect(empty).toMatchObject({ status: 503, message: '503 status code' });
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
