import type { ROUTES, RouteKey } from '@coinventory/contract/routes';
import type { RouteResponses } from '#contract-routes';
import type { Coinventory } from '../client.js';
import type { PageParams, PagePromise, PageResponse } from './pagination.js';
import type { PathParamNames, PathParams } from './path.js';

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

/** Options of a call that writes (`create`, `update`, `delete`). */
export interface WriteOptions extends RequestOptions {
  /**
   * The `Idempotency-Key` to send, printable ASCII, 1 to 255 characters. The SDK sends one with every write anyway
   * (a random UUID made once per call, the same on each of its retries), which is what makes retrying writes safe;
   * pass your own to make a write safe to repeat across calls or processes, for example the id of the order a sync
   * job is copying. The API answers a repeat of the same request with the first answer for 24 hours.
   */
  idempotencyKey?: string | undefined;
}

/** Options of an item write that can be a dry run (`create`, `update`, `delete`). */
export interface DryRunOptions {
  /**
   * Check everything the write would (validation, a SKU already used, ids, `ifMatch`) and answer what would result,
   * writing nothing: no item, no change event, no sync job, no webhook delivery. Refusals throw as for a real write.
   */
  dryRun?: boolean | undefined;
}

/** Options of a streamed read (an export): the media type asked for, and the usual request options. */
export interface StreamOptions extends RequestOptions {
  accept: string;
}

/** Options of a call that changes an existing object (`update`, `delete`). */
export interface ConditionalWriteOptions extends WriteOptions {
  /**
   * An ETag (from `withResponse()`): the write is applied only if the object still has it; otherwise the call rejects
   * with `PreconditionFailedError` (412) and nothing is written. Guards against overwriting someone else's change.
   */
  ifMatch?: string | undefined;
}

/** Options of a conditional GET: with `ifNoneMatch`, the call resolves to `NOT_MODIFIED` when nothing changed. */
export interface ConditionalGetOptions extends RequestOptions {
  /**
   * An ETag (from `withResponse()`): when the object still has it, the server answers 304 without a body and the call
   * resolves to `NOT_MODIFIED` instead of the object. The request still counts against the rate limit.
   */
  ifNoneMatch: string | undefined;
}

/** A raw request's query: each value sent as text, an array as the parameter repeated; undefined and null left out. */
export type RawQuery = Readonly<
  Record<string, string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>>
>;

/** What `client.rawRequest` sends besides its method and path, and every option a route's call takes. */
export interface RawRequestOptions extends ConditionalWriteOptions {
  /** The query string's parameters. */
  query?: RawQuery | undefined;
  /** The request body, sent as JSON (with `Content-Type: application/json`); none when undefined. */
  body?: unknown;
  /** An ETag: the server answers 304 when it still matches, and the call resolves to `NOT_MODIFIED`. */
  ifNoneMatch?: string | undefined;
}

/** Every option a request can take; each route uses the ones that apply to it. */
export type SendOptions = ConditionalWriteOptions & Partial<ConditionalGetOptions>;

/** The options of a GET sent without `ifNoneMatch`: it resolves to the body, never to `NOT_MODIFIED`. */
export type UnconditionalOptions<O extends RequestOptions = RequestOptions> = O & { ifNoneMatch?: undefined };

type RoutePath<K extends RouteKey> = (typeof ROUTES)[K]['path'];

/** The routes that answer with a numbered page: every resource's `list`, and an endpoint's `deliveries`. */
export type ListRouteKey = {
  [K in RouteKey]: RouteResponses[K] extends PageResponse<unknown> ? K : never;
}[RouteKey];

/**
 * The path values a list route takes after its options: none for `/items`, `[{ id }]` for
 * `/webhook-endpoints/:id/deliveries`. A rest tuple, so a route without path values is called as before.
 */
export type ListPathArgs<K extends RouteKey> = [PathParamNames<RoutePath<K>>] extends [never]
  ? []
  : [path: PathParams<RoutePath<K>>];

/** What a route needs besides its method and path: path values when it has any, a query, a JSON body. */
export type RequestInput<K extends RouteKey> = {
  query?: object | undefined;
  body?: unknown;
} & ([PathParamNames<RoutePath<K>>] extends [never] ? { params?: undefined } : { params: PathParams<RoutePath<K>> });

/** The parsed JSON body a route answers with, as the contract declares it. */
export type ResponseBody<K extends RouteKey> = RouteResponses[K];

/** The entries of a list route's pages. */
export type ListEntry<K extends ListRouteKey> = RouteResponses[K] extends PageResponse<infer T> ? T : never;

/**
 * What the resources send their calls through: the client's HTTP transport, or anything with its two methods (the
 * client itself has them). The response types follow from the route key.
 */
export interface Transport {
  /**
   * Sends one request of the contract's route `key` and resolves to its parsed JSON body, or to `NOT_MODIFIED` when
   * `ifNoneMatch` was sent and matched: the client's own `request`, whose overloads are written once, there.
   */
  request: Coinventory['request'];
  /**
   * Sends a list route as a {@link PagePromise}: awaitable to its first page, async-iterable over every entry. A route
   * with path values takes them last: `requestList('webhookEndpoints.deliveries', params, options, { id })`.
   */
  requestList<K extends ListRouteKey, P extends PageParams>(
    key: K,
    params: P,
    options?: RequestOptions,
    ...path: ListPathArgs<K>
  ): PagePromise<ListEntry<K>, P>;
  /** Sends a streamed route and resolves with the response once its headers are in, its body still to be read. */
  stream(key: StreamRouteKey, query: object | undefined, options: StreamOptions): Promise<Response>;
}

/** The routes whose answer is streamed rather than one JSON body. */
export type StreamRouteKey = 'items.export';
