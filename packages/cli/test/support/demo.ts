import { Coinventory, type Item } from '@coinventory/sdk';
import { expect, inject } from 'vitest';
import { type CliResult, cli, type RunOptions } from './cli.js';

// The shared server's demo workspace (the same data on every run except ids and keys), through the built binary and
// through the SDK to check what it printed, both with the workspace's own key.

const { baseUrl, keys } = inject('server');

/** The environment that points the CLI at the shared server with the workspace's key. */
export const keyEnv = { COINVENTORY_BASE_URL: baseUrl, COINVENTORY_API_KEY: keys.main };

/** `cli` with `keyEnv` (options.env adds to it). */
export const run = (args: readonly string[], options: RunOptions = {}): Promise<CliResult> =>
  cli(args, { ...options, env: { ...keyEnv, ...options.env } });

export const sdk = new Coinventory({ apiKey: keys.main, baseUrl, maxRetries: 0 });

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
