import { DEFAULT_BASE_URL, type KeyMode, TEST_MODE } from '@coinventory/contract/constants';
import { CoinventoryError } from './errors.js';

/** The client's options, checked when it is made, so a bad one fails at once with what to give instead. */

/**
 * The API's base URL, checked when the client is made rather than failing its first request after retries: an http or
 * https URL, its trailing slashes dropped. `from` names where it came from, for the message.
 */
export function checkBaseUrl(value: string, from: string): string {
  if (HTTP_URL.test(value)) return value.replace(/\/+$/, '');
  // The usual slip is a missing scheme ('localhost:3000/v1'): name what was probably meant.
  const suggestion =
    HOST_AND_PATH.test(value) && !value.includes('//') ? ` Did you mean ${JSON.stringify(`http://${value}`)}?` : '';
  throw new CoinventoryError(
    `${from} must be an http or https URL such as ${DEFAULT_BASE_URL}; got ${JSON.stringify(value)}.${suggestion}`,
  );
}

// Patterns, not the URL class: the SDK runs where only fetch's own globals are sure to exist.
const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
const HOST_AND_PATH = /^[^\s/?#:]+(?::\d+)?(?:[/?#]\S*)?$/;

export function checkTimeout(value: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new CoinventoryError(`timeoutMs must be a positive number of milliseconds; got ${String(value)}.`);
  }
  return value;
}

export function checkMaxRetries(value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new CoinventoryError(`maxRetries must be a whole number of at least 0; got ${String(value)}.`);
  }
  return value;
}

/**
 * The mode a key's prefix names. Anything but a test key's prefix counts as live: the server decides whether the key
 * is any good, and a key that is not a test key never reaches a sandbox.
 */
export const keyModeOf = (apiKey: string): KeyMode => (apiKey.startsWith(TEST_MODE.keyPrefixes.test) ? 'test' : 'live');
