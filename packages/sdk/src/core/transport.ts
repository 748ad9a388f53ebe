import type { ROUTES, RouteKey } from '@coinventory/contract/routes';
import type { RouteResponses } from '#contract-routes';
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

/** The parsed JSON body a route answers with, as the contract declares it. */
export type ResponseBody<K extends RouteKey> = RouteResponses[K];

/** The entries of a list route's pages. */
export type ListEntry<K extends ListRouteKey> = RouteResponses[K] extends PageResponse<infer T> ? T : never;

/**
 * What the resources send their calls through: the client's HTTP transport, or anything with its two methods (the
 * client itself has them). The response types follow from the route key.
 */
export interface Transport {
  /** Sends one request of the contract's route `key` and resolves to its parsed JSON body. */
  request<K extends RouteKey>(key: K, input: RequestInput<K>, options?: RequestOptions): Promise<ResponseBody<K>>;
  /** Sends a list route as a {@link PagePromise}: awaitable to its first page, async-iterable over every entry. */
  requestList<K extends ListRouteKey, P extends PageParams>(
    key: K,
    params: P,
    options?: RequestOptions,
  ): PagePromise<ListEntry<K>, P>;
}
