import { CONDITIONAL, IDEMPOTENCY } from '@coinventory/contract/constants';
import { ROUTES, type RouteKey } from '@coinventory/contract/routes';
import { VERSION } from '../version.js';
import { APIPromise, type APIResponse, NOT_MODIFIED, type NotModified } from './api-promise.js';
import { keyPrefix } from './auth-hints.js';
import { checkMaxRetries, checkTimeout } from './client-options.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  CoinventoryError,
} from './errors.js';
import type { Observer } from './observe.js';
import { type PageParams, PagePromise, type PageResponse } from './pagination.js';
import { fillPath } from './path.js';
import { RETRY, retryDelayMs, retryReason, sleep, unwaitedRetryAfter } from './retry.js';
import type {
  ListEntry,
  ListPathArgs,
  ListRouteKey,
  RawQuery,
  RequestInput,
  ResponseBody,
  SendOptions,
  StreamOptions,
  Transport,
  UnconditionalOptions,
} from './transport.js';

/** What a response body is read as: JSON (a route's), or JSON when its Content-Type says so and text otherwise (raw). */
type BodyKind = 'json' | 'json-or-text';

function isJson(contentType: string | null): boolean {
  return contentType !== null && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType);
}

/** A `fetch` implementation: the global one, or any function with its shape (undici, a test double…). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** What every request of one client shares; `timeoutMs` and `maxRetries` are the defaults a call may override. */
export interface HttpSettings {
  apiKey: string;
  /** Without a trailing slash. */
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  /** Undefined for `globalThis.fetch`, read at each request. */
  fetch: Fetch | undefined;
  /** Told of every attempt and every wait: the client's log lines and hooks. */
  observer: Observer;
}

/** The largest delay `setTimeout` honours; longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const USER_AGENT = `coinventory-sdk-js/${VERSION}`;

/** Sends the contract's routes over HTTP: builds each request, times each attempt, and retries by the retry rule. */
export class HttpTransport implements Transport {
  readonly #settings: HttpSettings;

  constructor(settings: HttpSettings) {
    this.#settings = settings;
  }

  // One implementation typed by Transport's route overloads (declared once, in transport.ts), as overloads written
  // on a method would type the implementation under them.
  readonly request = (<K extends RouteKey>(key: K, input: RequestInput<K>, options: SendOptions = {}) => {
    const { params, query, body } = input as { params?: Record<string, string>; query?: object; body?: unknown };
    return new APIPromise(this.#sendRoute<ResponseBody<K>>(key, params ?? {}, query, body, options));
  }) as Transport['request'];

  requestList<K extends ListRouteKey, P extends PageParams>(
    key: K,
    params: P,
    options: UnconditionalOptions = {},
    ...[path]: ListPathArgs<K>
  ): PagePromise<ListEntry<K>, P> {
    return new PagePromise<ListEntry<K>, P>(params, (query) =>
      this.#sendRoute<PageResponse<ListEntry<K>>>(key, path ?? {}, query, undefined, options).then(({ data }) => {
        if (data === NOT_MODIFIED) {
          throw new CoinventoryError(
            'The API answered 304 Not Modified to a list: send If-None-Match with client.request(key, input, { ifNoneMatch }), not in `headers`.',
          );
        }
        return data;
      }),
    );
  }

  /**
   * Sends a streamed route (the export) and resolves once its headers are in, with the response whose body the caller
   * reads as it arrives. Until then it is timed and retried as a GET; once the body has begun, only `signal` ends it
   * (an export of a large organization may take longer than one attempt's timeout, and is never retried part-way).
   */
  async stream(key: RouteKey, query: object | undefined, options: StreamOptions): Promise<Response> {
    const route = ROUTES[key];
    const url = this.#url(fillPath(route.path, {}), query);
    const maxRetries = checkMaxRetries(options.maxRetries ?? this.#settings.maxRetries);
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.#settings.timeoutMs);
    const headers = this.#headers(route.method, false, options);
    headers.set('Accept', options.accept);
    const init = { method: route.method, headers };
    return this.#retrying(
      { url, init, maxRetries, signal: options.signal },
      () => this.#open(url, init, timeoutMs, options.signal),
      (response) => response,
    );
  }

  /**
   * Runs one call's attempts until one succeeds or the retry rule says stop, waiting between them; tells the observer
   * of each attempt, its outcome and each wait.
   */
  async #retrying<T>(
    call: {
      url: string;
      init: RequestInit & { headers: Headers };
      maxRetries: number;
      signal: AbortSignal | undefined;
    },
    attempt: () => Promise<T>,
    responseOf: (value: T) => Response,
  ): Promise<T> {
    const { url, init, maxRetries, signal } = call;
    const method = init.method ?? 'GET';
    const observer = this.#settings.observer;
    const sent = {
      method,
      path: url.slice(this.#settings.baseUrl.length),
      maxAttempts: maxRetries + 1,
      idempotencyKey: init.headers.get(IDEMPOTENCY.header) ?? undefined,
    };
    for (let retry = 0; ; retry += 1) {
      const event = { ...sent, attempt: retry + 1 };
      observer.request(event, init.headers);
      const started = Date.now();
      try {
        const value = await attempt();
        const { status, headers } = responseOf(value);
        const requestId = headers.get('x-request-id') ?? undefined;
        observer.response({
          ...event,
          status,
          durationMs: Date.now() - started,
          requestId,
          error: undefined,
          retry: undefined,
        });
        return value;
      } catch (error) {
        const delay = retryDelayMs(method, error, retry, maxRetries);
        const delayMs = delay === undefined ? undefined : Math.min(delay, MAX_TIMER_MS);
        const answered = error instanceof APIError ? error : undefined;
        observer.response({
          ...event,
          status: answered?.status,
          durationMs: Date.now() - started,
          requestId: answered?.requestId,
          error: error instanceof CoinventoryError ? error : undefined,
          retry: delayMs === undefined ? undefined : { delayMs, reason: retryReason(error), nextAttempt: retry + 2 },
        });
        if (delayMs === undefined) {
          const unwaited = retry < maxRetries ? unwaitedRetryAfter(error) : undefined;
          if (unwaited !== undefined) {
            observer.log(
              'warn',
              `${method} ${sent.path}: told to retry after ${unwaited} s, longer than the ${RETRY.maxRetryAfterSeconds} s the client waits; not retrying`,
            );
          }
          throw error;
        }
        await sleep(delayMs, signal);
      }
    }
  }

  /** The error for a non-2xx answer, told what was asked so that its message can say what failed. */
  #apiError(response: Response, text: string, url: string, init: RequestInit): APIError {
    const authorization = new Headers(init.headers).get('authorization');
    const request = {
      method: init.method ?? 'GET',
      url,
      baseUrl: this.#settings.baseUrl,
      keyPrefix: keyPrefix(authorization),
    };
    return APIError.from(response.status, parseBody(text), response.headers, request);
  }

  /** One attempt of a streamed route: the response once its headers are in (2xx), or the error that ended it. */
  async #open(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined): Promise<Response> {
    if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason });
    // Left in place after the headers: the caller's signal also ends the body.
    const { controller, timer, onAbort, timedOut } = attemptControl(timeoutMs, signal);
    let response: Response;
    let text = '';
    try {
      const fetchImpl = this.#settings.fetch ?? globalThis.fetch;
      response = await untilAborted(fetchImpl(url, { ...init, signal: controller.signal }), controller.signal);
      if (!response.ok) text = await untilAborted(response.text(), controller.signal);
    } catch (error) {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) throw new APIUserAbortError({ cause: error });
      if (timedOut()) throw new APIConnectionTimeoutError(timeoutMs);
      throw new APIConnectionError(`Connection error: ${describe(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      signal?.removeEventListener('abort', onAbort);
      throw this.#apiError(response, text, url, init);
    }
    return response;
  }

  /**
   * Sends any method to any path under the base URL (`client.rawRequest`): the same headers, timeouts and retry rule
   * as a route's call, and a body that is JSON when the response says so, else its text.
   */
  raw(method: string, pathname: string, query: RawQuery | undefined, body: unknown, options: SendOptions) {
    return new APIPromise(this.#send<unknown>(method, pathname, query, body, options, 'json-or-text'));
  }

  // Async so that a bad path value rejects the call's promise rather than throwing where the call is made.
  async #sendRoute<T>(
    key: RouteKey,
    params: Readonly<Record<string, string>>,
    query: object | undefined,
    body: unknown,
    options: SendOptions,
  ): Promise<APIResponse<T | NotModified>> {
    const route = ROUTES[key];
    return this.#send<T>(route.method, fillPath(route.path, params), query, body, options, 'json');
  }

  async #send<T>(
    method: string,
    pathname: string,
    query: object | undefined,
    body: unknown,
    options: SendOptions,
    expect: BodyKind,
  ): Promise<APIResponse<T | NotModified>> {
    const url = this.#url(pathname, query);
    const maxRetries = checkMaxRetries(options.maxRetries ?? this.#settings.maxRetries);
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.#settings.timeoutMs);
    // Built once, so every retry sends the same bytes and the same Idempotency-Key: the server then applies the
    // write at most once, and a retry of one that was applied gets the first answer again.
    const init = {
      method,
      headers: this.#headers(method, body !== undefined, options),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    return this.#retrying(
      { url, init, maxRetries, signal: options.signal },
      () => this.#attempt<T>(url, init, timeoutMs, options.signal, expect),
      ({ response }) => response,
    );
  }

  #url(pathname: string, query: object | undefined): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      // An array repeats the parameter (`rawRequest`'s query); the routes' own parameters are never arrays.
      for (const one of Array.isArray(value) ? value : [value]) {
        if (one !== undefined && one !== null) search.append(name, String(one));
      }
    }
    const qs = search.toString();
    // A raw request's path may carry its own query string; the parameters given apart join it.
    const joiner = pathname.includes('?') ? '&' : '?';
    return `${this.#settings.baseUrl}${pathname}${qs ? `${joiner}${qs}` : ''}`;
  }

  #headers(method: string, hasBody: boolean, options: SendOptions): Headers {
    const headers = new Headers({
      Accept: 'application/json',
      Authorization: `Bearer ${this.#settings.apiKey}`,
      'User-Agent': USER_AGENT,
      'X-Coinventory-Client': USER_AGENT,
    });
    if (hasBody) headers.set('Content-Type', 'application/json');
    if (method !== 'GET') headers.set(IDEMPOTENCY.header, idempotencyKey(options.idempotencyKey));
    if (options.ifMatch !== undefined) headers.set(CONDITIONAL.ifMatchHeader, options.ifMatch);
    if (options.ifNoneMatch !== undefined) headers.set(CONDITIONAL.ifNoneMatchHeader, options.ifNoneMatch);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    return headers;
  }

  /** One attempt: the response's parsed body (`NOT_MODIFIED` for a 304) with its metadata, or the error that ended it. */
  async #attempt<T>(
    url: string,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    expect: BodyKind,
  ): Promise<APIResponse<T | NotModified>> {
    if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason });
    const { controller, timer, onAbort, timedOut } = attemptControl(timeoutMs, signal);
    try {
      let response: Response;
      let text: string;
      try {
        const fetchImpl = this.#settings.fetch ?? globalThis.fetch;
        // Raced against the signal as well, so a fetch (or a body stream) that ignores it still cannot hang.
        response = await untilAborted(fetchImpl(url, { ...init, signal: controller.signal }), controller.signal);
        text = await untilAborted(response.text(), controller.signal);
      } catch (error) {
        if (signal?.aborted) throw new APIUserAbortError({ cause: error });
        if (timedOut()) throw new APIConnectionTimeoutError(timeoutMs);
        throw new APIConnectionError(`Connection error: ${describe(error)}`, { cause: error });
      }
      const etag = response.headers.get(CONDITIONAL.etagHeader) ?? undefined;
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.status === 304) return { data: NOT_MODIFIED, response, etag, requestId };
      if (!response.ok) throw this.#apiError(response, text, url, init);
      if (expect === 'json-or-text' && !isJson(response.headers.get('content-type'))) {
        return { data: text as T, response, etag, requestId };
      }
      try {
        return { data: JSON.parse(text) as T, response, etag, requestId };
      } catch (error) {
        throw new CoinventoryError(
          `The API answered ${response.status} with a body that is not JSON${requestId ? ` (request id ${requestId})` : ''}.`,
          { cause: error },
        );
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * One controller that aborts an attempt on its timeout or on the caller's signal; a plain timer rather than
 * AbortSignal.timeout/any, which Node 20.0–20.2 lack and which fake timers in tests cannot drive. The caller clears
 * `timer` and removes `onAbort` from `signal` when the attempt is over.
 */
function attemptControl(timeoutMs: number, signal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    Math.min(timeoutMs, MAX_TIMER_MS),
  );
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  return { controller, timer, onAbort, timedOut: () => timedOut };
}

/**
 * The Idempotency-Key of one write: the caller's, checked against the API's rule so a bad one fails before anything
 * is sent, or a random UUID.
 */
function idempotencyKey(given: string | undefined): string {
  if (given !== undefined) {
    if (typeof given !== 'string' || !IDEMPOTENCY.keyPattern.test(given)) {
      throw new CoinventoryError(
        `idempotencyKey must be ${IDEMPOTENCY.key.min} to ${IDEMPOTENCY.key.max} printable ASCII characters; got ${JSON.stringify(given)}.`,
      );
    }
    return given;
  }
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID !== 'function') {
    throw new CoinventoryError(
      'No crypto.randomUUID in this runtime to make an Idempotency-Key: pass `idempotencyKey` with each write.',
    );
  }
  return crypto.randomUUID();
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** An error body as JSON when it is JSON, else its text (a proxy's HTML page, for example). */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
