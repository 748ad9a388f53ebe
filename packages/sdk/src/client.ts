import type { Me } from '@coinventory/contract';
import { DEFAULT_BASE_URL } from '@coinventory/contract/constants';
import { ROUTES, type RouteKey } from '@coinventory/contract/routes';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  CoinventoryError,
} from './core/errors.js';
import { type PageParams, PagePromise, type PageResponse } from './core/pagination.js';
import { fillPath, type PathParamNames, type PathParams } from './core/path.js';
import { retryDelayMs, sleep } from './core/retry.js';
import { Consignments } from './resources/consignments.js';
import { Invoices } from './resources/invoices.js';
import { Items } from './resources/items.js';
import { VERSION } from './version.js';

/** A `fetch` implementation: the global one, or any function with its shape (undici, a test double…). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /**
   * Your API key (`cvk_live_…`). Keep it on a server: never ship it in a web page or a mobile app.
   * @default process.env.COINVENTORY_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * The API's base URL, including its version prefix.
   * @default process.env.COINVENTORY_BASE_URL, else `http://localhost:3000/v1` (the contract's DEFAULT_BASE_URL)
   */
  baseUrl?: string | undefined;
  /**
   * How long one attempt may take, from sending the request to reading the whole response, in milliseconds.
   * Each retry gets its own `timeoutMs`.
   * @default 60000
   */
  timeoutMs?: number | undefined;
  /**
   * How many times a failed request is retried (see the retry rule in the README: 429 for every method; 5xx,
   * connection errors and timeouts for GET and DELETE only). 0 disables retries.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The `fetch` to send requests with.
   * @default globalThis.fetch
   */
  fetch?: Fetch | undefined;
}

/** Options for one call; each overrides the client's setting for that call only. */
export interface RequestOptions {
  /** Retries for this call. @default the client's `maxRetries` (2) */
  maxRetries?: number | undefined;
  /** Timeout of each attempt of this call, in milliseconds. @default the client's `timeoutMs` (60000) */
  timeoutMs?: number | undefined;
  /** Aborts the call (including a wait before a retry); it then rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Extra headers, for example your own `X-Request-Id` to find the call in the server's logs. */
  headers?: Record<string, string> | undefined;
}

type RoutePath<K extends RouteKey> = (typeof ROUTES)[K]['path'];

/** The routes whose path takes no parameters and that answer with a page: the list routes. */
export type ListRouteKey = {
  [K in RouteKey]: K extends `${string}.list` ? ([PathParamNames<RoutePath<K>>] extends [never] ? K : never) : never;
}[RouteKey];

/** What a route needs besides its method and path: path values when it has any, a query, a JSON body. */
export type RequestInput<K extends RouteKey> = {
  query?: object | undefined;
  body?: unknown;
} & ([PathParamNames<RoutePath<K>>] extends [never] ? { params?: undefined } : { params: PathParams<RoutePath<K>> });

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
/** The largest delay `setTimeout` honours; longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const USER_AGENT = `coinventory-sdk-js/${VERSION}`;

/**
 * The Coinventory API client.
 *
 * ```ts
 * const client = new Coinventory({ apiKey: process.env.COINVENTORY_API_KEY });
 * for await (const item of client.items.list({ status: 'in_stock' })) console.log(item.sku);
 * ```
 */
export class Coinventory {
  /** The base URL requests go to, without a trailing slash. */
  readonly baseUrl: string;
  /** Default timeout of each attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** Default number of retries. */
  readonly maxRetries: number;

  readonly items: Items;
  readonly consignments: Consignments;
  readonly invoices: Invoices;

  readonly #apiKey: string;
  readonly #fetch: Fetch | undefined;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? readEnv('COINVENTORY_API_KEY');
    if (!apiKey) {
      throw new CoinventoryError(
        'Missing API key: pass `apiKey` to `new Coinventory({ apiKey })` or set the COINVENTORY_API_KEY environment variable.',
      );
    }
    this.#apiKey = apiKey;
    this.baseUrl = (options.baseUrl ?? readEnv('COINVENTORY_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.maxRetries = checkMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.#fetch = options.fetch;
    if (!this.#fetch && typeof globalThis.fetch !== 'function') {
      throw new CoinventoryError('No global `fetch` in this runtime: pass one as `new Coinventory({ fetch })`.');
    }
    this.items = new Items(this);
    this.consignments = new Consignments(this);
    this.invoices = new Invoices(this);
  }

  /** The organization, key (id, name, expiry, scopes) and rate limit this client is authenticated as. */
  me(options?: RequestOptions): Promise<Me> {
    return this.request<Me, 'me'>('me', {}, options);
  }

  /**
   * Sends one request of the contract's route `key` and returns its parsed JSON body, retrying by the retry rule.
   * The resource methods are built on it; use it for a route the SDK does not wrap yet.
   */
  request<T, K extends RouteKey = RouteKey>(key: K, input: RequestInput<K>, options?: RequestOptions): Promise<T> {
    const { params, query, body } = input as { params?: Record<string, string>; query?: object; body?: unknown };
    return this.#send<T>(key, params ?? {}, query, body, options ?? {});
  }

  /**
   * Sends a list route as a {@link PagePromise}: awaitable to its first page, async-iterable over every item.
   * The resources' `list` methods are built on it.
   */
  requestList<T, P extends PageParams, K extends ListRouteKey = ListRouteKey>(
    key: K,
    params: P,
    options?: RequestOptions,
  ): PagePromise<T, P> {
    return new PagePromise<T, P>(params, (query) =>
      this.#send<PageResponse<T>>(key, {}, query, undefined, options ?? {}),
    );
  }

  async #send<T>(
    key: RouteKey,
    params: Readonly<Record<string, string>>,
    query: object | undefined,
    body: unknown,
    options: RequestOptions,
  ): Promise<T> {
    const route = ROUTES[key];
    const url = this.#url(fillPath(route.path, params), query);
    const maxRetries = checkMaxRetries(options.maxRetries ?? this.maxRetries);
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.timeoutMs);
    const init: RequestInit = {
      method: route.method,
      headers: this.#headers(body !== undefined, options.headers),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    for (let retry = 0; ; retry += 1) {
      try {
        return await this.#attempt<T>(url, init, timeoutMs, options.signal);
      } catch (error) {
        const delay = retryDelayMs(route.method, error, retry, maxRetries);
        if (delay === undefined) throw error;
        await sleep(Math.min(delay, MAX_TIMER_MS), options.signal);
      }
    }
  }

  #url(pathname: string, query: object | undefined): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${pathname}${qs ? `?${qs}` : ''}`;
  }

  #headers(hasBody: boolean, extra: Record<string, string> | undefined): Headers {
    const headers = new Headers({
      Accept: 'application/json',
      Authorization: `Bearer ${this.#apiKey}`,
      'User-Agent': USER_AGENT,
      'X-Coinventory-Client': USER_AGENT,
    });
    if (hasBody) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    return headers;
  }

  /** One attempt: the response's parsed body, or the error that ended it. */
  async #attempt<T>(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
    if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason });
    // One controller aborts the attempt on timeout or on the caller's signal; a plain timer rather than
    // AbortSignal.timeout/any, which Node 20.0–20.2 lack and which fake timers in tests cannot drive.
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
    try {
      let response: Response;
      let text: string;
      try {
        const fetchImpl = this.#fetch ?? globalThis.fetch;
        // Raced against the signal as well, so a fetch (or a body stream) that ignores it still cannot hang.
        response = await untilAborted(fetchImpl(url, { ...init, signal: controller.signal }), controller.signal);
        text = await untilAborted(response.text(), controller.signal);
      } catch (error) {
        if (signal?.aborted) throw new APIUserAbortError({ cause: error });
        if (timedOut) throw new APIConnectionTimeoutError(timeoutMs);
        throw new APIConnectionError(`Connection error: ${describe(error)}`, { cause: error });
      }
      if (!response.ok) throw APIError.from(response.status, parseBody(text), response.headers);
      try {
        return JSON.parse(text) as T;
      } catch (error) {
        const requestId = response.headers.get('x-request-id');
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

/** Reads an environment variable where the runtime has `process.env` (Node, Bun, Deno); undefined elsewhere. */
function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}

function checkTimeout(value: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new CoinventoryError(`timeoutMs must be a positive number of milliseconds; got ${String(value)}.`);
  }
  return value;
}

function checkMaxRetries(value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new CoinventoryError(`maxRetries must be a whole number of at least 0; got ${String(value)}.`);
  }
  return value;
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
