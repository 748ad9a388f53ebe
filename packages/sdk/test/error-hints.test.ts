import { ERRORS } from '@coinventory/contract/constants';
import { HttpResponse, http, passthrough } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';
import { API_KEY, BASE_URL, errorBody, makeClient, server, url, useMsw } from './support/msw.js';
import { createKey, type RunningServer, startServer, stopServer, thrown } from './support/server.js';

// The API's messages are fixed per status ("Authorization not provided" for every 401, even when a key was sent and
// refused): `apiMessage` and `code` stay exactly the API's, and `hint` (also the end of `message`) says what happened,
// from the request (was a key sent?) and the WWW-Authenticate challenge. The key itself is never in an error.

useMsw();

const UNAUTHORIZED = errorBody('UNAUTHORIZED', ERRORS.UNAUTHORIZED.message);
const FORBIDDEN = errorBody('FORBIDDEN', ERRORS.FORBIDDEN.message);

/** What GET /me throws when the API answers `status` with `body` and `headers`. */
async function thrownBy(
  status: number,
  body: object,
  headers: Record<string, string> = {},
  options: sdk.RequestOptions = {},
): Promise<sdk.APIError> {
  server.use(http.get(url('/me'), () => HttpResponse.json(body, { status, headers })));
  const error = await thrown(makeClient({ maxRetries: 0, logLevel: 'off' }).me(options));
  expect(error).toBeInstanceOf(sdk.APIError);
  return error as sdk.APIError;
}

/** The API's message, code and status unchanged; the hint after it in `message`; the key nowhere. */
function expectHinted(error: sdk.APIError, apiMessage: string, hint: string | RegExp, key = API_KEY): void {
  expect(error.apiMessage).toBe(apiMessage);
  if (typeof hint === 'string') expect(error.hint).toBe(hint);
  else expect(error.hint).toMatch(hint);
  expect(error.message).toBe(`${apiMessage}. ${error.hint}`);
  const shown = JSON.stringify({ ...error, message: error.message, hint: error.hint, request: error.request });
  expect(shown).not.toContain(key);
  expect(shown).not.toContain(key.slice(-12));
}

describe('401: the key sent, or none', () => {
  it('a key the API refused (invalid_token): named by its first characters, with what to check', async () => {
    const error = await thrownBy(401, UNAUTHORIZED, {
      'WWW-Authenticate':
        'Bearer error="invalid_token", error_description="The API key is unknown, expired or revoked"',
    });
    expect(error).toBeInstanceOf(sdk.AuthenticationError);
    expect(error.code).toBe('UNAUTHORIZED');
    expectHinted(
      error,
      'Authorization not provided',
      'The API refused the key cvk_live_unit…: check that it is the whole key, and that it has not expired or been revoked.',
    );
    expect(error.request?.keyPrefix).toBe('cvk_live_unit…');
  });

  it('a key the API could not read (invalid_request)', async () => {
    const error = await thrownBy(401, UNAUTHORIZED, { 'WWW-Authenticate': 'Bearer error="invalid_request"' });
    expectHinted(error, 'Authorization not provided', /^The API could not read the key cvk_live_unit… from/);
  });

  it('a key sent that did not arrive (a challenge without an error)', async () => {
    const error = await thrownBy(401, UNAUTHORIZED, { 'WWW-Authenticate': 'Bearer resource_metadata="x"' });
    expectHinted(error, 'Authorization not provided', /^The key cvk_live_unit… was sent but did not reach the API/);
  });

  it('no key sent (the Authorization header replaced): how to give one', async () => {
    const error = await thrownBy(401, UNAUTHORIZED, {}, { headers: { Authorization: '' } });
    expectHinted(
      error,
      'Authorization not provided',
      'No API key was sent: pass `apiKey` to `new Coinventory({ apiKey })` or set the COINVENTORY_API_KEY environment variable.',
    );
  });

  it('a short token is shown by its length only', async () => {
    const error = await thrownBy(401, UNAUTHORIZED, {}, { headers: { Authorization: 'Bearer abc123' } });
    expect(error.hint).toBe(
      'The API refused the key … (6 characters): check that it is the whole key, and that it has not expired or been revoked.',
    );
  });
});

describe('403: the scope from the challenge', () => {
  it('names the missing scope', async () => {
    const error = await thrownBy(403, FORBIDDEN, {
      'WWW-Authenticate':
        'Bearer error="insufficient_scope", error_description="The API key lacks the write scope", scope="write", resource_metadata="https://api.example/.well-known/oauth-protected-resource/v1"',
    });
    expect(error).toBeInstanceOf(sdk.PermissionDeniedError);
    expectHinted(
      error,
      'Insufficient access',
      `This request needs the "write" scope, which the key cvk_live_unit… lacks: use a key that has it (GET /me lists a key's scopes).`,
    );
  });

  it('a key that lost access (no scope named)', async () => {
    const error = await thrownBy(403, FORBIDDEN, { 'WWW-Authenticate': 'Bearer error="insufficient_scope"' });
    expectHinted(error, 'Insufficient access', /^The key cvk_live_unit… is valid but may no longer call the API/);
  });

  it('no challenge: no hint, the API message alone', async () => {
    const error = await thrownBy(403, FORBIDDEN);
    expect(error).toMatchObject({ hint: undefined, message: 'Insufficient access', apiMessage: 'Insufficient access' });
  });
});

describe('429: when to retry', () => {
  const body = errorBody('TOO_MANY_REQUESTS', ERRORS.TOO_MANY_REQUESTS.message);

  it('after Retry-After; the key limit when RateLimit says so', async () => {
    const error = await thrownBy(429, body, { 'Retry-After': '12', RateLimit: '"default";r=0;t=12' });
    expectHinted(
      error,
      'Too many requests',
      'Retry after 12 s: the rate limit counts every request made with this key, by every process using it.',
    );
    expect((error as sdk.RateLimitError).retryAfter).toBe(12);
  });

  it('without Retry-After', async () => {
    expectHinted(await thrownBy(429, body), 'Too many requests', 'Wait a few seconds, then retry.');
  });
});

describe('against the real server', () => {
  let running: RunningServer | undefined;
  let readOnlyKey = '';

  beforeAll(async () => {
    running = await startServer();
    readOnlyKey = await createKey(running, 'sdk hints read-only', 'read');
  });
  afterAll(async () => {
    await stopServer(running);
  });
  beforeEach(() => {
    server.use(http.all(`${new URL(running?.baseUrl ?? BASE_URL).origin}/*`, () => passthrough()));
  });

  const client = (apiKey: string) =>
    new sdk.Coinventory({ apiKey, baseUrl: running?.baseUrl, maxRetries: 0, logLevel: 'off' });

  it('an unknown key: the spec\'s "Authorization not provided", and that the key was refused', async () => {
    const key = `cvk_live_${'Zq'.repeat(19)}`;
    const error = (await thrown(client(key).me())) as sdk.APIError;
    expect(error).toBeInstanceOf(sdk.AuthenticationError);
    expect(error.code).toBe('UNAUTHORIZED');
    expectHinted(error, ERRORS.UNAUTHORIZED.message, /^The API refused the key cvk_live_ZqZq…: check/, key);
  });

  it('a read-only key writing: the spec\'s "Insufficient access", and the write scope it lacks', async () => {
    const error = (await thrown(client(readOnlyKey).items.create({ sku: 'HINT-1', title: 'No' }))) as sdk.APIError;
    expect(error).toBeInstanceOf(sdk.PermissionDeniedError);
    expect(error.code).toBe('FORBIDDEN');
    expectHinted(
      error,
      ERRORS.FORBIDDEN.message,
      /^This request needs the "write" scope, which the key cvk_live_/,
      readOnlyKey,
    );
  });
});
