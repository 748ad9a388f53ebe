import type { WebhookEvent } from '@coinventory/contract';
import { WEBHOOKS } from '@coinventory/contract/constants';
import { brand, CoinventoryError } from './core/errors.js';

// Webhook signatures (Standard Webhooks 1.0): verifying a delivery in a receiver, and signing one (the CLI's `listen`,
// a receiver's tests). WebCrypto only, so it runs unchanged on Node 20+, edge runtimes and browsers, and adds no
// dependency; the client never imports this module, so a bundle that does not use it does not carry it. Its
// functions are consts rather than declarations for that reason: the build's keepNames follows a declaration with a
// `__name(fn)` statement, which bundlers keep, whereas a const's `__name(…)` is marked pure and dropped when unused.

/** Why a delivery was refused: a machine-readable {@link WebhookVerificationError.reason}. */
export type WebhookVerificationReason =
  /** `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty. */
  | 'missing_headers'
  /** `webhook-timestamp` is not a whole number of seconds. */
  | 'invalid_timestamp'
  /** The timestamp is older than the tolerance allows: possibly a replayed request. */
  | 'timestamp_too_old'
  /** The timestamp is further in the future than the tolerance allows. */
  | 'timestamp_too_new'
  /** No `v1,` signature in `webhook-signature` matches the body signed with the secret. */
  | 'invalid_signature'
  /** The secret given is not `whsec_` + base64 (or plain base64). A mistake in the receiver, not in the request. */
  | 'invalid_secret'
  /** The signature matched, but the body is not a JSON event whose `id` is the `webhook-id`. */
  | 'invalid_payload';

/** A webhook delivery failed verification: answer it 4xx and do not act on it. */
export class WebhookVerificationError extends CoinventoryError {
  static {
    brand(WebhookVerificationError, 'WebhookVerificationError');
  }

  /** Why, for code: `'invalid_signature'`, `'timestamp_too_old'`, … */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** A delivery's raw body, exactly as received: the bytes the signature covers. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * A request's headers: a fetch `Headers`, or a plain object such as Node's `request.headers` (names in any case; a
 * repeated header as an array).
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /**
   * How far, in seconds, the `webhook-timestamp` may be from `now`, either way, before the delivery is refused as a
   * possible replay.
   * @default 300 (the contract's `WEBHOOKS.toleranceSeconds`)
   */
  tolerance?: number | undefined;
  /** The receiver's clock, for tests. @default new Date() */
  now?: Date | undefined;
}

export interface SignWebhookInput {
  /** The `webhook-id`: a change's id (or a ping's). */
  id: string;
  /** The body to send, exactly as it will be sent. */
  body: WebhookBody;
  /** The secret, or several (`v1,` signatures space-separated, as during a rotation). */
  secret: string | readonly string[];
  /** The `webhook-timestamp`, to the second. @default new Date() */
  timestamp?: Date | undefined;
}

/** The Standard Webhooks headers of one delivery: `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
export type WebhookSignatureHeaders = Record<(typeof WEBHOOKS.headers)['id' | 'timestamp' | 'signature'], string>;

/**
 * Verifies a webhook delivery and returns its event: the `Change` (narrowed by `type`) or a `ping`.
 *
 * Pass the body exactly as received (`express.raw({ type: 'application/json' })`, `await request.text()`): parsing
 * and re-serialising JSON changes the bytes the signature covers. Accepts when any `v1,` signature in
 * `webhook-signature` matches one of the secrets (several during a rotation), compared in constant time, and the
 * timestamp is within `tolerance` of `now`. Otherwise rejects with a {@link WebhookVerificationError} whose `reason`
 * says why.
 *
 * ```ts
 * const event = await verifyWebhook(req.body, req.headers, process.env.COINVENTORY_WEBHOOK_SECRET);
 * if (event.type === 'item.updated') await apply(event.data);
 * ```
 */
export const verifyWebhook = async (
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> => {
  const keys = await Promise.all(secretList(secret).map(hmacKey));
  const id = header(headers, WEBHOOKS.headers.id);
  const timestamp = header(headers, WEBHOOKS.headers.timestamp);
  const signatures = header(headers, WEBHOOKS.headers.signature);
  if (!id || !timestamp || !signatures) {
    const missing = Object.values(WEBHOOKS.headers).filter((name) => name !== WEBHOOKS.headers.changesCursor);
    throw new WebhookVerificationError(
      'missing_headers',
      `A webhook delivery needs the headers ${missing.join(', ')}.`,
    );
  }
  checkTimestamp(timestamp, options);

  const body = bytesOf(rawBody);
  const signed = signedContent(id, timestamp, body);
  // `v1,<base64>` entries, space-separated; other versions are for other verifiers, and are skipped.
  const candidates: Uint8Array[] = [];
  for (const entry of signatures.split(/\s+/)) {
    const comma = entry.indexOf(',');
    const bytes =
      entry.slice(0, comma) === WEBHOOKS.signatureVersion ? decodeBase64(entry.slice(comma + 1)) : undefined;
    if (bytes) candidates.push(bytes);
  }
  let matched = false;
  for (const key of keys) {
    const expected = new Uint8Array(await crypto().subtle.sign('HMAC', key, signed));
    // Every candidate is compared, matching or not, so the time taken says nothing about which one matched.
    for (const candidate of candidates) matched = constantTimeEqual(expected, candidate) || matched;
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'invalid_signature',
      'No webhook signature matches: the body was changed, or it was signed with another secret.',
    );
  }
  return parseEvent(body, id);
};

/**
 * Signs a delivery as Coinventory does: the headers to send with `body`. With several secrets, one `v1,` signature
 * each. For the CLI's `listen` and for a receiver's own tests.
 */
export const signWebhook = async (input: SignWebhookInput): Promise<WebhookSignatureHeaders> => {
  const timestamp = String(Math.floor((input.timestamp ?? new Date()).getTime() / 1000));
  const signed = signedContent(input.id, timestamp, bytesOf(input.body));
  const signatures = await Promise.all(
    secretList(input.secret).map(async (secret) => {
      const signature = await crypto().subtle.sign('HMAC', await hmacKey(secret), signed);
      return `${WEBHOOKS.signatureVersion},${encodeBase64(new Uint8Array(signature))}`;
    }),
  );
  return {
    [WEBHOOKS.headers.id]: input.id,
    [WEBHOOKS.headers.timestamp]: timestamp,
    [WEBHOOKS.headers.signature]: signatures.join(' '),
  } as WebhookSignatureHeaders;
};

/** A new random signing secret: `whsec_` + the base64 of 32 random bytes, as the API makes them. */
export const generateWebhookSecret = (): string => {
  const bytes = crypto().getRandomValues(new Uint8Array(WEBHOOKS.secretBytes));
  return `${WEBHOOKS.secretPrefix}${encodeBase64(bytes)}`;
};

/** An HMAC key WebCrypto made: opaque here. */
type HmacKey = object;

/** The part of WebCrypto used here, declared so that this compiles with either the DOM's types or Node's. */
interface WebCrypto {
  subtle: {
    importKey(
      format: 'raw',
      key: Uint8Array<ArrayBuffer>,
      algorithm: { name: 'HMAC'; hash: 'SHA-256' },
      extractable: false,
      usages: ['sign'],
    ): Promise<HmacKey>;
    sign(algorithm: 'HMAC', key: HmacKey, data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
  };
  getRandomValues(array: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>;
}

/** WebCrypto, which Node 20+, Deno, Bun, workers and browsers all have as a global. */
const crypto = (): WebCrypto => {
  const found = (globalThis as { crypto?: WebCrypto }).crypto;
  if (!found?.subtle) throw new CoinventoryError('No WebCrypto (globalThis.crypto.subtle) in this runtime.');
  return found;
};

const secretList = (secret: string | readonly string[]): readonly string[] => {
  const list = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'Give the endpoint\'s signing secret ("whsec_…").');
  }
  return list;
};

/** The HMAC-SHA256 key a secret names: the bytes of its base64, after the `whsec_` prefix. */
const hmacKey = (secret: string): Promise<HmacKey> => {
  const text =
    typeof secret === 'string' && secret.startsWith(WEBHOOKS.secretPrefix)
      ? secret.slice(WEBHOOKS.secretPrefix.length)
      : secret;
  const bytes = typeof text === 'string' ? decodeBase64(text) : undefined;
  if (!bytes || bytes.length === 0) {
    throw new WebhookVerificationError(
      'invalid_secret',
      `A webhook secret is "${WEBHOOKS.secretPrefix}" followed by base64, as the API showed it when the endpoint was created.`,
    );
  }
  return crypto().subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
};

/** A header's value, by its lower-case name, whatever the form of `headers`; repeated values joined by a space. */
const header = (headers: WebhookHeaders, name: string): string | undefined => {
  let value: string | readonly string[] | null | undefined;
  if (typeof headers.get === 'function') value = (headers as { get(name: string): string | null }).get(name);
  else {
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(' ') : undefined;
  return text?.trim() || undefined;
};

const checkTimestamp = (timestamp: string, options: VerifyWebhookOptions): void => {
  const tolerance = options.tolerance ?? WEBHOOKS.toleranceSeconds;
  if (typeof tolerance !== 'number' || !(tolerance >= 0)) {
    throw new CoinventoryError(`tolerance must be a number of seconds ≥ 0; got ${String(tolerance)}.`);
  }
  const seconds = /^\d{1,15}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  if (Number.isNaN(seconds)) {
    throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp must be a Unix time in seconds.');
  }
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (now - seconds > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `The webhook was signed ${now - seconds} s ago, more than the tolerance of ${tolerance} s: it may be a replay.`,
    );
  }
  if (seconds - now > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `The webhook's timestamp is ${seconds - now} s ahead of this clock, more than the tolerance of ${tolerance} s.`,
    );
  }
};

const bytesOf = (body: WebhookBody): Uint8Array => {
  const value: unknown = body;
  if (typeof value === 'string') return new TextEncoder().encode(value);
  // Views and buffers of any realm (a Buffer, a vm context's Uint8Array), which instanceof would not all recognise.
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (Object.prototype.toString.call(value) === '[object ArrayBuffer]') return new Uint8Array(value as ArrayBuffer);
  throw new WebhookVerificationError(
    'invalid_payload',
    'The webhook body must be the raw body as received (a string, a Uint8Array such as a Node buffer, or an ArrayBuffer), not parsed JSON.',
  );
};

/** What is signed: `{id}.{timestamp}.{body}`, the body's own bytes unchanged. */
const signedContent = (id: string, timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> => {
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return content;
};

const parseEvent = (body: Uint8Array, id: string): WebhookEvent => {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is not JSON.', { cause: error });
  }
  const fields = typeof event === 'object' && event !== null ? (event as Record<string, unknown>) : {};
  // The webhook-id is the event's id: a signed body carried under another id is not this delivery.
  if (fields.id !== id || typeof fields.type !== 'string') {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is not the event its webhook-id names.');
  }
  return event as WebhookEvent;
};

/** Whether two byte strings are equal, in a time that depends only on their length (an HMAC's is no secret). */
const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** Standard base64 (padding optional) to bytes; undefined for anything else, rather than skipping stray characters. */
const decodeBase64 = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!BASE64.test(text)) return undefined;
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
};

const encodeBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};
