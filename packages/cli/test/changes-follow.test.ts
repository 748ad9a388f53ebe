import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Change } from '@coinventory/sdk';
import { describe, expect, inject, it } from 'vitest';
import { startCli } from './support/cli.js';
import { withKey } from './support/demo.js';

// `changes --follow`: it prints a change made while it runs, and Ctrl-C or SIGTERM end it cleanly (exit 0) with
// where to resume; a server it cannot reach is retried until it is stopped.

const { keyEnv, sdk } = withKey(inject('server').keys.follow);

const resumeLine = (cursor: string): string => `Resume with: coinventory changes --after ${cursor}\n`;

describe('changes --follow', () => {
  it('prints a change made while it runs; SIGTERM ends it with exit 0 and the cursor after that change', async () => {
    const start = (await sdk.changes.cursor()).cursor;
    const following = startCli(['changes', '--after', start, '--follow', '--interval', '1', '--json'], { env: keyEnv });
    const item = await sdk.items.create({ sku: `FOL-${randomUUID().slice(0, 8)}`, title: 'Followed coin' });
    const stdout = await following.waitFor('stdout', (text) => text.includes(item.id));
    const [change] = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Change);
    expect(change).toMatchObject({ type: 'item.created', objectId: item.id, data: item });
    // One more change, printed too, while the follower keeps going.
    await sdk.items.delete(item.id);
    await following.waitFor('stdout', (text) => text.includes('"item.deleted"'));
    const end = (await sdk.changes.cursor()).cursor;
    const result = await following.stop('SIGTERM');
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(result.stderr).toBe(resumeLine(end));
  });

  it('Ctrl-C (SIGINT) ends it the same way, also in a table', async () => {
    const start = (await sdk.changes.cursor()).cursor;
    const following = startCli(['changes', '--after', start, '--follow', '--interval', '1'], { env: keyEnv });
    const item = await sdk.items.create({ sku: `FOL-${randomUUID().slice(0, 8)}`, title: 'Followed in a table' });
    await following.waitFor('stdout', (text) => text.includes(item.id));
    const result = await following.stop('SIGINT');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^TIME .*\\n\\S+ \\S+  item\\.created  ${item.id}  ${item.sku} +Followed in a table\\n$`),
    );
    expect(result.stderr).toBe(resumeLine((await sdk.changes.cursor()).cursor));
    await sdk.items.delete(item.id);
  });

  it('retries an API it cannot reach, saying so, until stopped; then resumes from where it was', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
    closed.close();
    await once(closed, 'close');
    const following = startCli(['changes', '--after', 'cursor-to-keep', '--follow'], {
      env: { ...keyEnv, COINVENTORY_BASE_URL: url },
    });
    await following.waitFor('stderr', (text) => text.includes('trying again in 1s… (Ctrl-C to stop)'), 30_000);
    const result = await following.stop('SIGTERM');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith(resumeLine('cursor-to-keep'))).toBe(true);
  });
});
