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

/** A delivery the marketplace accepted: its HTTP status, when it answered over HTTP. */
export interface DeliveryReceipt {
  status?: number | undefined;
}

export interface MarketplaceAdapter {
  /** Names the marketplace: its deliveries share one gate (pause and circuit) across every worker. */
  readonly name: string;
  setQuantity(request: MarketplaceRequest & { quantity: number }): Promise<DeliveryReceipt>;
  /** Succeeds when the listing is gone, including when it was already gone. */
  deleteListing(request: MarketplaceRequest): Promise<DeliveryReceipt>;
}

/** A failed delivery: retried (network errors, timeouts, 429, 5xx) or not (any other refusal). */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The marketplace's Retry-After, when it sent one. */
    readonly retryAfterMs?: number,
    /** The HTTP status it answered with; undefined for a network error or a timeout. */
    readonly status?: number,
    /** Why no answer came, when none did. */
    readonly noAnswer?: 'network' | 'timeout',
  ) {
    super(message);
  }
}
