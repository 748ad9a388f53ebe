import { randomUUID } from 'node:crypto';
import openApiDocument from '@coinventory/contract/openapi';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  CHANGE_TYPES,
  CoinventoryError,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WEBHOOKS,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../src/index.js';
import { thrown } from './support/server.js';

// verifyWebhook and signWebhook against the reference implementation of Standard Webhooks (the `standardwebhooks`
// package, what receivers outside JavaScript's SDK use too): each accepts what the other signs, and verifyWebhook
// refuses every kind of forgery with its own reason.

const SECRET = generateWebhookSecret();
const OTHER_SECRET = generateWebhookSecret();

/** A change as the feed and a delivery carry it. */
function change(): WebhookEvent {
  return {
    id: randomUUID(),
    type: 'item.deleted',
    objectId: randomUUID(),
    occurredAt: '2026-05-01T12:00:00.000Z',
    actor: { type: 'key', id: randomUUID(), name: 'Website sync' },
    data: null,
  };
}

/** A delivery signed by `standardwebhooks`: its body and its headers, as a receiver gets them. */
function signedByReference(event: WebhookEvent, secret = SECRET, at = new Date()) {
  const body = JSON.stringify(event);
  const signature = new Webhook(secret).sign(event.id, at, body);
  const headers: Record<string, string> = {
    [WEBHOOKS.headers.id]: event.id,
    [WEBHOOKS.headers.timestamp]: String(Math.floor(at.getTime() / 1000)),
    [WEBHOOKS.headers.signature]: signature,
  };
  return { body, headers, signature };
}

/** The reason verifyWebhook refused with; fails the test if it accepted. */
async function refusal(call: Promise<unknown>): Promise<WebhookVerificationReason> {
  const error = await thrown(call);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(error).toBeInstanceOf(CoinventoryError);
  return (error as WebhookVerificationError).reason;
}

describe('verifyWebhook accepts what standardwebhooks signs', () => {
  it('a string body with fetch Headers, returning the typed event', async () => {
    const event = change();
    const { body, headers } = signedByReference(event);
    const verified = await verifyWebhook(body, new Headers(headers), SECRET);
    expect(verified).toEqual(event);
    // Narrowed by type, as a receiver switches on it.
    if (verified.type === 'item.deleted') expect(verified.data).toBeNull();
  });

  it("bytes (a Buffer, a Uint8Array, an ArrayBuffer) with Node's plain header object, in any case", async () => {
    const event = change();
    const { body, headers } = signedByReference(event);
    // Node lower-cases header names; a hand-made object may not, and a repeated header comes as an array.
    const nodeHeaders = {
      'Webhook-Id': headers[WEBHOOKS.headers.id],
      'WEBHOOK-TIMESTAMP': headers[WEBHOOKS.headers.timestamp],
      'webhook-signature': [headers[WEBHOOKS.headers.signature] ?? ''],
      'content-type': 'application/json',
    };
    const buffer = Buffer.from(body);
    for (const raw of [
      buffer,
      new Uint8Array(buffer),
      buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.length),
    ]) {
      expect(await verifyWebhook(raw, nodeHeaders, SECRET)).toEqual(event);
    }
  });

  it('one valid signature among others: another secret, another version, garbage', async () => {
    const event = change();
    const { body, headers, signature } = signedByReference(event);
    const stale = signedByReference(event, OTHER_SECRET).signature;
    headers[WEBHOOKS.headers.signature] = `${stale} v2,${signature.slice(3)} v1,not-base64! ${signature}`;
    expect(await verifyWebhook(body, headers, SECRET)).toEqual(event);
  });

  it('with either secret of a rotation, or both given at once', async () => {
    const event = change();
    const body = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, body, secret: [OTHER_SECRET, SECRET] });
    expect(headers[WEBHOOKS.headers.signature].split(' ')).toHaveLength(2);
    expect(await verifyWebhook(body, headers, SECRET)).toEqual(event);
    expect(await verifyWebhook(body, headers, OTHER_SECRET)).toEqual(event);
    const onlyNew = signedByReference(event);
    expect(await verifyWebhook(body, onlyNew.headers, [OTHER_SECRET, SECRET])).toEqual(event);
  });

  it.each(CHANGE_TYPES)('a %s delivery (the contract example), typed by its type', async (type) => {
    // ValuationCreatedChange, ConsignmentUpdatedChange, …: the component of each change type.
    const component = `${type.replace(/(?:^|\.)(\w)/g, (_, letter: string) => letter.toUpperCase())}Change`;
    const [example] = (openApiDocument.components.schemas[component]?.examples ?? []) as WebhookEvent[];
    const event = { ...(example ?? expect.fail(`no example of ${component}`)), id: randomUUID() };
    expect(event.type).toBe(type);
    const { body, headers } = signedByReference(event);
    const verified = await verifyWebhook(body, headers, SECRET);
    expect(verified).toEqual(event);
    // Each type carries its own object: only the item types carry an item.
    switch (verified.type) {
      case 'item.created':
      case 'item.updated':
        expect(verified.data.sku).toEqual(expect.any(String));
        break;
      case 'item.deleted':
        expect(verified.data).toBeNull();
        break;
      case 'valuation.created':
        expect(verified.data.itemId).toEqual(expect.any(String));
        expect(verified.data).not.toHaveProperty('sku');
        break;
      case 'consignment.created':
      case 'consignment.updated':
        expect(verified.data.totalPayoutInCents).toEqual(expect.any(Number));
        break;
      case 'invoice.created':
      case 'invoice.updated':
        expect(verified.data.lines).toEqual(expect.any(Array));
        break;
      case 'reservation.created':
      case 'reservation.committed':
      case 'reservation.released':
      case 'reservation.expired':
        expect(verified.data.itemId).toEqual(expect.any(String));
        expect(verified.data.status).toBe(type.slice('reservation.'.length).replace('created', 'held'));
        break;
      default:
        expect.fail(`not a change type: ${verified.type}`);
    }
  });

  it('a secret without its whsec_ prefix, and a ping', async () => {
    const ping: WebhookEvent = {
      id: randomUUID(),
      type: WEBHOOKS.pingType,
      occurredAt: new Date().toISOString(),
      data: null,
    };
    const { body, headers } = signedByReference(ping);
    expect(await verifyWebhook(body, headers, SECRET.slice(WEBHOOKS.secretPrefix.length))).toEqual(ping);
  });
});

describe('standardwebhooks accepts what signWebhook signs', () => {
  it('a string body and a Buffer body, with the headers signWebhook returns', async () => {
    const event = change();
    const body = JSON.stringify(event);
    const before = Math.floor(Date.now() / 1000);
    const headers = await signWebhook({ id: event.id, body, secret: SECRET });
    const after = Math.floor(Date.now() / 1000);
    expect(Object.keys(headers).sort()).toEqual(
      [WEBHOOKS.headers.id, WEBHOOKS.headers.signature, WEBHOOKS.headers.timestamp].sort(),
    );
    // The signing time, in whole seconds: a second may turn while it signs.
    expect(headers[WEBHOOKS.headers.timestamp]).toMatch(/^\d+$/);
    expect(Number(headers[WEBHOOKS.headers.timestamp])).toBeGreaterThanOrEqual(before);
    expect(Number(headers[WEBHOOKS.headers.timestamp])).toBeLessThanOrEqual(after);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(event);
    const bytes = await signWebhook({ id: event.id, body: Buffer.from(body), secret: SECRET });
    expect(new Webhook(SECRET).verify(Buffer.from(body), bytes)).toEqual(event);
  });

  it('each secret of a rotation', async () => {
    const event = change();
    const body = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, body, secret: [SECRET, OTHER_SECRET] });
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(event);
    expect(new Webhook(OTHER_SECRET).verify(body, headers)).toEqual(event);
  });

  it('the same signature as standardwebhooks for the same timestamp', async () => {
    const event = change();
    const body = JSON.stringify(event);
    const at = new Date('2026-05-01T12:00:00Z');
    const headers = await signWebhook({ id: event.id, body, secret: SECRET, timestamp: at });
    expect(headers[WEBHOOKS.headers.signature]).toBe(new Webhook(SECRET).sign(event.id, at, body));
  });

  it('generateWebhookSecret makes whsec_ + the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(WEBHOOKS.secretPrefix.length), 'base64')).toHaveLength(WEBHOOKS.secretBytes);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('verifyWebhook refuses', () => {
  it('a tampered body', async () => {
    const event = change();
    const { body, headers } = signedByReference(event);
    const tampered = body.replace('item.deleted', 'item.created');
    expect(await refusal(verifyWebhook(tampered, headers, SECRET))).toBe('invalid_signature');
    expect(await refusal(verifyWebhook(`${body} `, headers, SECRET))).toBe('invalid_signature');
  });

  it('a signature made with another secret, or for another webhook-id or timestamp', async () => {
    const event = change();
    const { body, headers } = signedByReference(event);
    expect(await refusal(verifyWebhook(body, headers, OTHER_SECRET))).toBe('invalid_signature');
    const otherId = { ...headers, [WEBHOOKS.headers.id]: randomUUID() };
    expect(await refusal(verifyWebhook(body, otherId, SECRET))).toBe('invalid_signature');
    const seconds = Number(headers[WEBHOOKS.headers.timestamp]);
    const otherTime = { ...headers, [WEBHOOKS.headers.timestamp]: String(seconds - 1) };
    expect(await refusal(verifyWebhook(body, otherTime, SECRET))).toBe('invalid_signature');
  });

  it('a stale timestamp, past the tolerance (default five minutes, or the one given)', async () => {
    const event = change();
    const old = signedByReference(event, SECRET, new Date(Date.now() - (WEBHOOKS.toleranceSeconds + 5) * 1000));
    expect(await refusal(verifyWebhook(old.body, old.headers, SECRET))).toBe('timestamp_too_old');
    expect(await verifyWebhook(old.body, old.headers, SECRET, { tolerance: 3600 })).toEqual(event);
    const recent = signedByReference(event, SECRET, new Date(Date.now() - 60_000));
    expect(await refusal(verifyWebhook(recent.body, recent.headers, SECRET, { tolerance: 30 }))).toBe(
      'timestamp_too_old',
    );
  });

  it('a timestamp too far in the future, and one judged by the `now` given', async () => {
    const event = change();
    const ahead = signedByReference(event, SECRET, new Date(Date.now() + (WEBHOOKS.toleranceSeconds + 5) * 1000));
    expect(await refusal(verifyWebhook(ahead.body, ahead.headers, SECRET))).toBe('timestamp_too_new');
    const at = new Date('2026-05-01T12:00:00Z');
    const signed = signedByReference(event, SECRET, at);
    expect(await verifyWebhook(signed.body, signed.headers, SECRET, { now: at })).toEqual(event);
    expect(await refusal(verifyWebhook(signed.body, signed.headers, SECRET))).toBe('timestamp_too_old');
  });

  it('a delivery missing any one of the three headers, or with it empty', async () => {
    const { body, headers } = signedByReference(change());
    for (const name of [WEBHOOKS.headers.id, WEBHOOKS.headers.timestamp, WEBHOOKS.headers.signature]) {
      const { [name]: _left, ...without } = headers;
      expect(await refusal(verifyWebhook(body, without, SECRET)), name).toBe('missing_headers');
      expect(await refusal(verifyWebhook(body, new Headers({ ...headers, [name]: '' }), SECRET)), name).toBe(
        'missing_headers',
      );
    }
  });

  it('a timestamp that is not whole seconds', async () => {
    const { body, headers } = signedByReference(change());
    for (const timestamp of ['soon', '1.5e9', `${headers[WEBHOOKS.headers.timestamp]}.0`, '-1']) {
      const bad = { ...headers, [WEBHOOKS.headers.timestamp]: timestamp };
      expect(await refusal(verifyWebhook(body, bad, SECRET)), timestamp).toBe('invalid_timestamp');
    }
  });

  it('a malformed secret, before looking at the request', async () => {
    const { body, headers } = signedByReference(change());
    for (const secret of ['', 'whsec_', 'whsec_not base64!', 'whsec_a', `${SECRET}$`, []]) {
      expect(await refusal(verifyWebhook(body, headers, secret)), String(secret)).toBe('invalid_secret');
    }
  });

  it('a signed body that is not the event its webhook-id names', async () => {
    const id = randomUUID();
    for (const body of ['not json', JSON.stringify({ ...change(), id: randomUUID() }), '[1]', 'null']) {
      const headers = await signWebhook({ id, body, secret: SECRET });
      expect(await refusal(verifyWebhook(body, headers, SECRET)), body).toBe('invalid_payload');
    }
  });

  it('parsed JSON instead of the raw body, saying so', async () => {
    const event = change();
    const { headers } = signedByReference(event);
    const error = await thrown(verifyWebhook(event as never, headers, SECRET));
    expect(error).toMatchObject({ reason: 'invalid_payload', message: expect.stringContaining('raw body') });
  });
});
