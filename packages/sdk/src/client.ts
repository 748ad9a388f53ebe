import type { Me } from '@coinventory/contract';
import { DEFAULT_BASE_URL, type KeyMode } from '@coinventory/contract/constants';
import type { RouteKey } from '@coinventory/contract/routes';
import { APIPromise, type NotModified } from './core/api-promise.js';
import { checkBaseUrl, checkMaxRetries, checkTimeout, keyModeOf } from './core/client-options.js';
import { CoinventoryError } from './core/errors.js';
import { type Fetch, HttpTransport } from './core/http.js';
import {
  type Logger,
  type LogLevel,
  Observer,
  type RequestEvent,
  type ResponseEvent,
  resolveLogLevel,
} from './core/observe.js';
import type { PageParams, PagePromise } from './core/pagination.js';
import type {
  ConditionalGetOptions,
  ListEntry,
  ListPathArgs,
  ListRouteKey,
  RawRequestOptions,
  RequestInput,
  RequestOptions,
  ResponseBody,
  SendOptions,
  StreamOptions,
  StreamRouteKey,
  UnconditionalOptions,
} from './core/transport.js';
import { Categories } from './resources/categories.js';
import { Changes } from './resources/changes.js';
import { Consignments } from './resources/consignments.js';
import { Invoices } from './resources/invoices.js';
import { Items } from './resources/items.js';
import { Reservations } from './resources/reservations.js';
import { Warehouses } from './resources/warehouses.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';

export interface ClientOptions {
  /**
   * Your API key: a live key (`cvk_live_…`) reaches the workspace, a test key (`cvk_test_…`) its sandbox (see
   * {@link Coinventory.mode}). Keep it on a server: never ship it in a web page or a mobile app.
   * @default process.env.COINVENTORY_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * The API's base URL, including its version prefix. Anything but an http or https URL throws here, not at the first
   * request.
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
   * How many times a failed request is retried (see the retry rule in the README: 429, 5xx, connection errors and
   * timeouts, for writes too, which carry an Idempotency-Key). 0 disables retries.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The `fetch` to send requests with.
   * @default globalThis.fetch
   */
  fetch?: Fetch | undefined;
  /**
   * What the client logs: `'off'`, `'error'` (a hook that threw), `'warn'` (each wait before a retry: "rate
   * limited (429); waiting 12 s (attempt 2 of 3)"), `'info'` (also one line per attempt: method, path, status,
   * duration, request id) or `'debug'` (also each request as sent, its Authorization header redacted).
   * @default process.env.COINVENTORY_LOG, else 'warn'
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where log lines go: any object with `error`, `warn`, `info` and `debug` (pino, winston…).
   * @default globalThis.console (nothing is logged in a runtime without one)
   */
  logger?: Logger | undefined;
  /**
   * Called before each attempt is sent, retries included: method, path, attempt number, Idempotency-Key. Never given
   * the API key. What it throws (or rejects with) is caught and logged at 'error'; the request goes on.
   */
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /**
   * Called when each attempt ends, retries included: its status (undefined when no answer came), duration, request
   * id and error, and `retry` (the wait before the next attempt, and why: `rate_limited` for a 429) when there is
   * one. What it throws (or rejects with) is caught and logged at 'error'; the request goes on.
   */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;

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
  /**
   * Which data the key reaches, read from its prefix: `'test'` for a test key (`cvk_test_…`), which reaches only the
   * workspace's sandbox, whose changes never leave the server (no marketplace, no webhooks to live endpoints);
   * `'live'` for any other key. Every answer to a test key also carries the header `Coinventory-Mode: test`.
   */
  readonly mode: KeyMode;

  readonly items: Items;
  readonly reservations: Reservations;
  readonly consignments: Consignments;
  readonly invoices: Invoices;
  readonly categories: Categories;
  readonly warehouses: Warehouses;
  readonly changes: Changes;
  readonly webhookEndpoints: WebhookEndpoints;

  readonly #transport: HttpTransport;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? readEnv('COINVENTORY_API_KEY');
    if (!apiKey) {
      throw new CoinventoryError(
        'Missing API key: pass `apiKey` to `new Coinventory({ apiKey })` or set the COINVENTORY_API_KEY environment variable.',
      );
    }
    this.mode = keyModeOf(apiKey);
    const fromEnv = options.baseUrl === undefined ? readEnv('COINVENTORY_BASE_URL') : undefined;
    this.baseUrl = checkBaseUrl(
      options.baseUrl ?? fromEnv ?? DEFAULT_BASE_URL,
      fromEnv === undefined ? 'baseUrl' : 'COINVENTORY_BASE_URL',
    );
    this.timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.maxRetries = checkMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
    if (!options.fetch && typeof globalThis.fetch !== 'function') {
      throw new CoinventoryError('No global `fetch` in this runtime: pass one as `new Coinventory({ fetch })`.');
    }
    const { level, warning } = resolveLogLevel(options.logLevel, readEnv('COINVENTORY_LOG'));
    const { logger, onRequest, onResponse } = options;
    const observer = new Observer({ logLevel: level, logger, onRequest, onResponse });
    if (warning) observer.log('warn', warning);
    const { baseUrl, timeoutMs, maxRetries } = this;
    this.#transport = new HttpTransport({ apiKey, baseUrl, timeoutMs, maxRetries, fetch: options.fetch, observer });
    this.items = new Items(this.#transport);
    this.reservations = new Reservations(this.#transport);
    this.consignments = new Consignments(this.#transport);
    this.invoices = new Invoices(this.#transport);
    this.categories = new Categories(this.#transport);
    this.warehouses = new Warehouses(this.#transport);
    this.changes = new Changes(this.#transport);
    this.webhookEndpoints = new WebhookEndpoints(this.#transport);
  }

  /**
   * The organization, key (id, name, expiry, scopes) and rate limit this client is authenticated as. With
   * `ifNoneMatch`, resolves to `NOT_MODIFIED` when none of it has changed.
   */
  me(options: ConditionalGetOptions): APIPromise<Me | NotModified>;
  me(options?: UnconditionalOptions): APIPromise<Me>;
  me(options?: SendOptions): APIPromise<Me | NotModified> {
    return this.#transport.request('me', {}, options);
  }

  /**
   * Sends one request of the contract's route `key` and returns its parsed JSON body, typed by the route, retrying
   * by the retry rule. Takes every option a route may use: `idempotencyKey` and `ifMatch` for writes, and
   * `ifNoneMatch` for reads (the call then resolves to `NOT_MODIFIED` when nothing changed). The resource methods are
   * built on it; use it for a route the SDK does not wrap yet.
   */
  request<K extends RouteKey>(
    key: K,
    input: RequestInput<K>,
    options: SendOptions & { ifNoneMatch: string | undefined },
  ): APIPromise<ResponseBody<K> | NotModified>;
  request<K extends RouteKey>(
    key: K,
    input: RequestInput<K>,
    options?: UnconditionalOptions<SendOptions>,
  ): APIPromise<ResponseBody<K>>;
  request<K extends RouteKey>(
    key: K,
    input: RequestInput<K>,
    options?: SendOptions,
  ): APIPromise<ResponseBody<K> | NotModified>;
  /** @deprecated The body type follows from `key`: call `request(key, input)` without type arguments. */
  request<T, K extends RouteKey = RouteKey>(
    key: K,
    input: RequestInput<K>,
    options?: UnconditionalOptions<SendOptions>,
  ): APIPromise<T>;
  request(key: RouteKey, input: RequestInput<RouteKey>, options?: SendOptions): APIPromise<unknown> {
    return this.#transport.request(key, input, options);
  }

  /**
   * Sends any request to the API, authenticated and retried like every other call, for what the SDK does not wrap
   * (an endpoint newer than this SDK) or to see an answer as it is: `path` is relative to the base URL
   * (`/items/123/valuations`). Resolves to the body: parsed when the response is JSON, else its text; `NOT_MODIFIED`
   * for a 304. Non-2xx answers reject with the same errors as the typed methods; `withResponse()` gives the status and
   * headers.
   *
   * ```ts
   * const page = await client.rawRequest('GET', '/items', { query: { status: 'in_stock', limit: 5 } });
   * ```
   */
  rawRequest(method: string, path: string, options: RawRequestOptions = {}): APIPromise<unknown> {
    const { query, body, ...send } = options;
    // Refused as a rejected call, as a bad path value is, so one `catch` handles every failure.
    const refuse = (message: string) => new APIPromise<unknown>(Promise.reject(new CoinventoryError(message)));
    if (!/^[A-Za-z]+$/.test(method)) return refuse(`Invalid HTTP method ${JSON.stringify(method)}.`);
    if (!path.startsWith('/') || path.startsWith('//')) {
      return refuse(
        `The path must start with one '/' and is relative to the base URL (${this.baseUrl}); got ${JSON.stringify(path)}.`,
      );
    }
    return this.#transport.raw(method.toUpperCase(), path, query, body, send);
  }

  /**
   * Sends a list route as a {@link PagePromise}: awaitable to its first page, async-iterable over every item.
   * The resources' `list` methods are built on it. A route with path values takes them last:
   * `requestList('webhookEndpoints.deliveries', params, options, { id })`.
   */
  requestList<K extends ListRouteKey, P extends PageParams = PageParams>(
    key: K,
    params: P,
    options?: RequestOptions,
    ...path: ListPathArgs<K>
  ): PagePromise<ListEntry<K>, P>;
  /** @deprecated The entry type follows from `key`: call `requestList(key, params)` without type arguments. */
  requestList<T, P extends PageParams, K extends ListRouteKey = ListRouteKey>(
    key: K,
    params: P,
    options?: RequestOptions,
    ...path: ListPathArgs<K>
  ): PagePromise<T, P>;
  requestList(
    key: ListRouteKey,
    params: PageParams,
    options?: RequestOptions,
    ...path: ListPathArgs<ListRouteKey>
  ): PagePromise<unknown, PageParams> {
    return this.#transport.requestList(key, params, options, ...path);
  }

  /**
   * Sends a streamed route (`items.export`) and resolves with the fetch `Response` once its headers are in, its body
   * still to be read; `client.items.export()` is built on it. Use it to read an export as CSV
   * (`{ accept: 'text/csv' }`) or to pipe its bytes somewhere as they arrive.
   */
  stream(key: StreamRouteKey, query: object | undefined, options: StreamOptions): Promise<Response> {
    return this.#transport.stream(key, query, options);
  }
}

/** Reads an environment variable where the runtime has `process.env` (Node, Bun, Deno); undefined elsewhere. */
function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}
