import { ROUTES, type RouteKey } from '@coinventory/contract/routes';
import { VERSION } from '../version.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  CoinventoryError,
} from './errors.js';
import { type PageParams, PagePromise } from './pagination.js';
import { fillPath } from './path.js';
import { retryDelayMs, sleep } from './retry.js';
import type { ListEntry, ListRouteKey, RequestInput, RequestOptions, ResponseBody, Transport } from './transport.js';

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

  request<K extends RouteKey>(key: K, input: RequestInput<K>, options: RequestOptions = {}): Promise<ResponseBody<K>> {
    const { params, query, body } = input as { params?: Record<string, string>; query?: object; body?: unknown };
    return this.#send<ResponseBody<K>>(key, params ?? {}, query, body, options);
  }

  requestList<K extends ListRouteKey, P extends PageParams>(
    key: K,
    params: P,
    options: RequestOptions = {},
  ): PagePromise<ListEntry<K>, P> {
    return new PagePromise<ListEntry<K>, P>(params, (query) => this.#send(key, {}, query, undefined, options));
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
    const maxRetries = checkMaxRetries(options.maxRetries ?? this.#settings.maxRetries);
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.#settings.timeoutMs);
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
    return `${this.#settings.baseUrl}${pathname}${qs ? `?${qs}` : ''}`;
  }

  #headers(hasBody: boolean, extra: Record<string, string> | undefined): Headers {
    const headers = new Headers({
      Accept: 'application/json',
      Authorization: `Bearer ${this.#settings.apiKey}`,
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
        const fetchImpl = this.#settings.fetch ?? globalThis.fetch;
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

export function checkTimeout(value: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new CoinventoryError(`timeoutMs must be a positive number of milliseconds; got ${String(value)}.`);
  }
  return value;
}

export function checkMaxRetries(value: number): number {
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
