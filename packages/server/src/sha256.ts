import * as crypto from 'node:crypto';

/**
 * crypto.hash (Node 20.12 and later): one call, without a Hash object; the same digest as createHash's. About half
 * the CPU of createHash for the short inputs hashed on every request (an API key, an answer's ETag).
 */
const oneShot = (
  crypto as {
    hash?: {
      (algorithm: 'sha256', data: string | Buffer, encoding: 'base64url'): string;
      (algorithm: 'sha256', data: string | Buffer, encoding: 'buffer'): Buffer;
    };
  }
).hash;

/** The SHA-256 of a string (as UTF-8) or of bytes, as base64url text or as a Buffer. */
export function sha256(data: string | Buffer, encoding: 'base64url'): string;
export function sha256(data: string | Buffer, encoding: 'buffer'): Buffer;
export function sha256(data: string | Buffer, encoding: 'base64url' | 'buffer'): string | Buffer {
  if (oneShot) return encoding === 'buffer' ? oneShot('sha256', data, 'buffer') : oneShot('sha256', data, 'base64url');
  const hash = crypto.createHash('sha256').update(data);
  return encoding === 'buffer' ? hash.digest() : hash.digest('base64url');
}
