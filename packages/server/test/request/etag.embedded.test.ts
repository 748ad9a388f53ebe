import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { etagOf, etagOfHash } from '../../src/request/etag.js';

/**
 * An answer's ETag is the same whichever way its bytes were hashed: whole (etagOf, one call where Node has
 * crypto.hash) or as they were written (etagOfHash, the export's stream). No database is involved: runs once.
 */
describe('etagOf', () => {
  it.each([
    ['an empty object', '{}'],
    ['non-ASCII text', JSON.stringify({ title: '1881-S Morgan — “PL” 🪙', notes: 'é\u0000\u2028' })],
    ['a long answer', JSON.stringify({ items: Array.from({ length: 500 }, (_, n) => ({ id: `itm_${n}`, n })) })],
  ])('is the SHA-256 ETag of the UTF-8 bytes, as a streamed hash gives it: %s', (_name, text) => {
    const streamed = etagOfHash(createHash('sha256').update(Buffer.from(text, 'utf8')));
    expect(etagOf(text)).toBe(streamed);
    expect(etagOf(text)).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});
