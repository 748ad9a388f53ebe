import { Coinventory, type Item } from '@coinventory/sdk';
import { expect, inject } from 'vitest';
import { type CliResult, cli, type RunOptions } from './cli.js';

// The shared server's demo organization (the same data on every run except ids and keys), through the built binary and
// through the SDK to check what it printed, both with the organization's own key or with a test file's own (withKey).

const { baseUrl, keys } = inject('server');

/** The CLI and the SDK on the shared server with one key of the organization. */
export interface Demo {
  /** The environment that points the CLI at the shared server with the key. */
  keyEnv: { COINVENTORY_BASE_URL: string; COINVENTORY_API_KEY: string };
  /** `cli` with `keyEnv` (options.env adds to it). */
  run(args: readonly string[], options?: RunOptions): Promise<CliResult>;
  sdk: Coinventory;
}

/** The demo organization with `key`: a file with many requests has its own key, so no file spends another's rate limit. */
export function withKey(key: string): Demo {
  const keyEnv = { COINVENTORY_BASE_URL: baseUrl, COINVENTORY_API_KEY: key };
  return {
    keyEnv,
    run: (args, options = {}) => cli(args, { ...options, env: { ...keyEnv, ...options.env } }),
    sdk: new Coinventory({ apiKey: key, baseUrl, maxRetries: 0 }),
  };
}

/** With the organization's own key. */
export const { keyEnv, run, sdk } = withKey(keys.main);

/** The parsed stdout of a run that must succeed quietly. */
export const json = <T>(result: CliResult): T => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
};

/** Every demo item, by SKU (from the SDK). */
export async function demoItems(): Promise<Item[]> {
  return (await sdk.items.list({ limit: 100, sort: 'sku' }).collectAll({ max: 1000 })).items;
}

/**
 * The items of a list a run printed with `--json`, which is the API's list body: `{ items, page, limit, hasMore }`
 * for one page, `{ items, hasMore }` with `--all`, `{ items }` for a list the API does not page.
 */
export const listed = <T>(result: CliResult): T[] => {
  const body = json<{ items: T[] }>(result);
  expect(Array.isArray(body.items), `not a list body: ${result.stdout.slice(0, 200)}`).toBe(true);
  return body.items;
};
