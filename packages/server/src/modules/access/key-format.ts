import { randomBytes } from 'node:crypto';
import { type KeyMode, TEST_MODE } from '@coinventory/contract';
import { sha256 } from '../../sha256.js';

/**
 * API keys look like `cvk_live_<32 random base62 chars><6 base62 checksum chars>`, or `cvk_test_…` for a test key.
 *
 * - The fixed prefix lets secret scanners recognise a leaked key and people tell it from other tokens, and a test key
 *   from a live one.
 * - 32 base62 characters carry about 190 bits of randomness.
 * - The checksum is the CRC32 of the random part in base62, as in GitHub's token format: typos and
 *   truncations are rejected without touching the database.
 */
const KEY_PREFIXES = TEST_MODE.keyPrefixes;
/** A live key's prefix: the one the spec names. */
export const KEY_PREFIX = KEY_PREFIXES.live;
const PREFIX_LENGTH = KEY_PREFIX.length;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const KEY_PATTERN = /^cvk_(?:live|test)_[0-9A-Za-z]{38}$/;
/** The regular expression that matches every key, for secret scanners. */
export const KEY_REGEX_SOURCE = '\\bcvk_(?:live|test)_[0-9A-Za-z]{38}\\b';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  // Rejection sampling keeps every character uniformly likely (248 = 4 × 62).
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const checksumOf = (random: string) => base62(crc32(random), CHECKSUM_LENGTH);

/** A new key value. Shown once; only its hash is stored. */
export function generateKey(mode: KeyMode = 'live'): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${KEY_PREFIXES[mode]}${random}${checksumOf(random)}`;
}

/** The mode a key's prefix names; say nothing about whether the key is well formed or exists. */
export const keyModeOf = (value: string): KeyMode | null =>
  value.startsWith(KEY_PREFIXES.test) ? 'test' : value.startsWith(KEY_PREFIXES.live) ? 'live' : null;

/** True when the value has the key format and a correct checksum. Says nothing about whether the key exists. */
export function isWellFormedKey(value: string): boolean {
  if (!KEY_PATTERN.test(value)) return false;
  const body = value.slice(PREFIX_LENGTH);
  return checksumOf(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/** What is stored and looked up: the SHA-256 of the whole key. */
export const hashKey = (key: string): Buffer => sha256(key, 'buffer');

/** The last four characters, shown in key listings. */
export const keyHint = (key: string): string => key.slice(-4);
