import { DeliveryError, type MarketplaceAdapter, type MarketplaceRequest } from './adapter.js';

/**
 * The marketplace's HTTP API, as this adapter speaks it (README, "Marketplace sync"):
 *
 *   PUT    {base}/listings/{listingId}/quantity   body {"quantity": n, "sequence": s}
 *   DELETE {base}/listings/{listingId}
 *
 * with `Authorization: Bearer {token}`, `Idempotency-Key: {job id}` and `X-Coinventory-Sequence: {s}`.
 * 2xx is success; for DELETE, 404 and 410 are success too (already gone). 429 and 5xx are retried (429 after
 * its Retry-After); other statuses are permanent failures. Network errors and timeouts are retried.
 */
export interface HttpAdapterOptions {
  baseUrl: string;
  token?: string | undefined;
  timeoutMs: number;
  fetch?: typeof fetch;
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function httpMarketplaceAdapter(options: HttpAdapterOptions): MarketplaceAdapter {
  // Resolved at each call, not captured here, so a fetch installed later (instrumentation, tests) is used.
  const send: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const base = options.baseUrl.replace(/\/$/, '');

  async function request(method: 'PUT' | 'DELETE', path: string, meta: MarketplaceRequest, body?: unknown) {
    const headers: Record<string, string> = {
      'Idempotency-Key': meta.idempotencyKey,
      'X-Coinventory-Sequence': String(meta.sequence),
      Accept: 'application/json',
    };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new DeliveryError(
        timedOut
          ? `timed out after ${options.timeoutMs} ms`
          : `network error: ${error instanceof Error ? error.message : String(error)}`,
        true,
        undefined,
        undefined,
        timedOut ? 'timeout' : 'network',
      );
    }
    // The body is not needed; read it so the connection can be reused.
    const text = await response.text().catch(() => '');
    return { status: response.status, retryAfter: retryAfterMs(response.headers.get('retry-after')), text };
  }

  function verdict(what: string, result: { status: number; retryAfter: number | undefined; text: string }): never {
    const detail = `${what}: HTTP ${result.status}${result.text ? ` ${result.text.slice(0, 200)}` : ''}`;
    if (result.status === 429 || result.status >= 500)
      throw new DeliveryError(detail, true, result.retryAfter, result.status);
    throw new DeliveryError(detail, false, undefined, result.status);
  }

  return {
    name: `http ${base}`,
    async setQuantity(meta) {
      const path = `/listings/${encodeURIComponent(meta.marketplaceListingId)}/quantity`;
      const result = await request('PUT', path, meta, { quantity: meta.quantity, sequence: meta.sequence });
      if (result.status >= 200 && result.status < 300) return { status: result.status };
      verdict(`PUT ${path}`, result);
    },
    async deleteListing(meta) {
      const path = `/listings/${encodeURIComponent(meta.marketplaceListingId)}`;
      const result = await request('DELETE', path, meta);
      if ((result.status >= 200 && result.status < 300) || result.status === 404 || result.status === 410)
        return { status: result.status };
      verdict(`DELETE ${path}`, result);
    },
  };
}
