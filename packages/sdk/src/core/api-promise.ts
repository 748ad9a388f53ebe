/**
 * What a conditional GET (`ifNoneMatch`) resolves to when the object still has the ETag you named: the server answered
 * 304 with no body, so the copy you hold is current. Compare with `===`; TypeScript then narrows the result.
 *
 * A `Symbol.for` symbol, so it is the same value in the ESM and CommonJS builds and in every installed copy.
 */
export const NOT_MODIFIED: unique symbol = Symbol.for('coinventory.notModified');
/** The type of {@link NOT_MODIFIED}. */
export type NotModified = typeof NOT_MODIFIED;

/** A call's parsed body with what the HTTP response said about it: what `withResponse()` resolves to. */
export interface APIResponse<T> {
  /** The parsed body: what awaiting the call itself gives. */
  data: T;
  /** The HTTP response of the attempt that succeeded, its body already read. */
  response: Response;
  /**
   * The response's `ETag`: pass it as `ifNoneMatch` to read the object again only if it changed, or as `ifMatch` to
   * update or delete it only if it has not. Undefined when the response carries none.
   */
  etag: string | undefined;
  /** The `X-Request-Id` response header: quote it when asking for support. */
  requestId: string | undefined;
}

/**
 * What every method that sends one request returns: a `Promise` of the parsed body, which can also give the
 * response's metadata (`ETag`, request id, headers) with {@link withResponse}. The request is sent at once, and once,
 * whichever of the two you await.
 *
 * ```ts
 * const item = await client.items.get(id);
 * const { data, etag } = await client.items.get(id).withResponse();
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #response: Promise<APIResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(response: Promise<APIResponse<T>>) {
    // The base promise is a placeholder: then, catch and finally read `response` instead. Its value is never seen.
    super((resolve) => resolve(undefined as never));
    this.#response = response;
  }

  // Promise methods that make new promises (Promise.all's and the base then) make plain ones, not APIPromises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The parsed body together with the response it came in: `{ data, response, etag, requestId }`. */
  withResponse(): Promise<APIResponse<T>> {
    return this.#response;
  }

  // The body is derived only when someone awaits it, so a caller who only uses withResponse() gets no second,
  // unhandled rejection from it.
  #parsed(): Promise<T> {
    this.#data ??= this.#response.then((response) => response.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a promise.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
