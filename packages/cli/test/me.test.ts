import { describe, expect, inject, it } from 'vitest';
import { scrub } from './support/cli.js';
import { json, run, sdk } from './support/demo.js';

// `me` against the shared server's demo organization.

const { baseUrl } = inject('server');

describe('me', () => {
  it('shows the organization, key and rate limit', async () => {
    const { code, stdout, stderr } = await run(['me']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(scrub(stdout).replace(baseUrl, '<base-url>')).toMatchInlineSnapshot(`
      "Organization     Liberty Coin & Bullion (liberty-coin)
      Organization ID  xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Mode             live
      Key              Demo key (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Scopes           read, write
      Expires          never
      Rate limit       120 requests per 60 s
      Base URL         <base-url>
      Key from         COINVENTORY_API_KEY
      "
    `);
  });

  it('--json prints the API object', async () => {
    expect(json(await run(['me', '--json']))).toEqual(await sdk.me());
  });
});
