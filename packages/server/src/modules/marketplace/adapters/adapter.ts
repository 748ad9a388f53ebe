/**
 * How the worker talks to the related marketplace. Each request carries the job's id as its idempotency key and
 * the listing's sequence number, so a redelivered job changes nothing and a stale one can be recognised.
 */
export interface MarketplaceRequest {
  marketplaceListingId: string;
  /** The job id: the same for every attempt of one job. */
  idempotencyKey: string;
  sequence: number;
  organizationId: string;
}

export interface MarketplaceAdapter {
  readonly name: string;
  setQuantity(request: MarketplaceRequest & { quantity: number }): Promise<void>;
  /** Succeeds when the listing is gone, including when it was already gone. */
  deleteListing(request: MarketplaceRequest): Promise<void>;
}

/** A failed delivery: retried (network errors, timeouts, 429, 5xx) or not (any other refusal). */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The marketplace's Retry-After, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
