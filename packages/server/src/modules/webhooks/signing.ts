import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOKS } from '@coinventory/contract';

/** A new signing secret: `whsec_` and the base64 of fresh random bytes, as Standard Webhooks libraries read it. */
export function generateSecret(): string {
  return `${WEBHOOKS.secretPrefix}${randomBytes(WEBHOOKS.secretBytes).toString('base64')}`;
}

/**
 * The `webhook-signature` value: one `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` per secret, keyed with
 * the secret's decoded bytes, space-separated (two while a rotated-out secret still signs).
 */
export function signatureHeader(id: string, timestamp: number, body: string, secrets: readonly string[]): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(WEBHOOKS.secretPrefix.length), 'base64');
      return `${WEBHOOKS.signatureVersion},${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}
