import { randomUUID } from 'node:crypto';
import { WEBHOOKS } from '@coinventory/contract/constants';
import type { Change } from '@coinventory/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningCli, startCli } from './support/cli.js';
import { withKey } from './support/demo.js';
import { type Received, type Receiver, startReceiver } from './support/receiver.js';

// `listen --forward-to`: item changes made through the API arrive at a real receiver on loopback, each verified with
// the `standardwebhooks` package and the secret `listen` printed (or was given); a receiver that fails is reported
// and listening goes on; Ctrl-C ends it with exit 0.

const { keyEnv, sdk, run } = withKey(inject('server').keys.listen);

let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

/** Starts `listen`, and once it is ready, the secret it signs with. */
async function listen(args: readonly string[]): Promise<{ running: RunningCli; secret: string }> {
  const running = startCli(['listen', '--forward-to', receiver.url, '--interval', '1', ...args], { env: keyEnv });
  const stderr = await running.waitFor('stderr', (text) => text.includes('Ready.'));
  const secret = /^Signing secret: (whsec_\S+)/m.exec(stderr)?.[1] ?? expect.fail(`no secret in:\n${stderr}`);
  return { running, secret };
}

/** The request for the change of `type` on `objectId`, once the receiver has it. */
async function delivery(type: Change['type'], objectId: string): Promise<Received> {
  const find = (received: readonly Received[]) =>
    received.find(
      (r) =>
        r.headers[WEBHOOKS.headers.id] !== undefined &&
        r.body.includes(`"type":"${type}"`) &&
        r.body.includes(objectId),
    );
  await receiver.waitFor((received) => find(received) !== undefined);
  return find(receiver.received) ?? expect.fail('no delivery');
}

const sku = () => `LSN-${randomUUID().slice(0, 8)}`;

describe('listen --forward-to', () => {
  it('forwards each change of the types asked for, signed, as the feed shows it; Ctrl-C ends it', async () => {
    const { running, secret } = await listen(['--events', 'item.created,item.deleted']);
    receiver.secrets = [secret];
    expect(running.output().stderr).toContain(
      `Forwarding the changes of type item.created, item.deleted to ${receiver.url}`,
    );

    const start = (await sdk.changes.cursor()).cursor;
    const item = await sdk.items.create({ sku: sku(), title: 'Listened coin' });
    const created = await delivery('item.created', item.id);
    expect(created.method).toBe('POST');
    expect(created.path).toBe('/hooks');
    expect(created.headers['content-type']).toBe('application/json');
    // Verified by standardwebhooks with the printed secret; the body is the Change exactly as the feed lists it.
    const event = created.verified as Change;
    expect(event).toMatchObject({ type: 'item.created', objectId: item.id, data: item });
    expect(created.headers[WEBHOOKS.headers.id]).toBe(event.id);
    // The cursor is after this change: the feed from it does not hold it again.
    const cursor = String(created.headers[WEBHOOKS.headers.changesCursor]);
    const after = await sdk.changes.list({ after: cursor });
    expect(after.items.map((change) => change.id)).not.toContain(event.id);
    const [listed] = (await sdk.changes.list({ after: start })).items;
    expect(created.body).toBe(JSON.stringify(listed));

    // An update is not among the types asked for; the deletion is.
    await sdk.items.update(item.id, { quantity: 2 });
    await sdk.items.delete(item.id);
    const deleted = await delivery('item.deleted', item.id);
    expect(deleted.verified).toMatchObject({ type: 'item.deleted', objectId: item.id, data: null });
    expect(receiver.received.filter((r) => r.body.includes(item.id)).map((r) => JSON.parse(r.body).type)).toEqual([
      'item.created',
      'item.deleted',
    ]);

    const result = await running.stop('SIGINT');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME +TYPE +OBJECT +STATUS +MS +ERROR$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^\\S+ \\S+  item\\.created  ${item.id}  204 +\\d+  -$`)),
      expect.stringMatching(new RegExp(`^\\S+ \\S+  item\\.deleted  ${item.id}  204 +\\d+  -$`)),
    ]);
    expect(result.stderr).toMatch(/Stopped: 2 delivered, 0 failed\.\n$/);
  });

  it('reports a receiver that fails or drops the connection, and goes on; signs with the secret given', async () => {
    const given = `${WEBHOOKS.secretPrefix}${Buffer.from(randomUUID()).toString('base64')}`;
    const { running, secret } = await listen(['--secret', given, '--json']);
    expect(secret).toBe(given);
    receiver.secrets = [given];

    receiver.answer = 500;
    const failing = await sdk.items.create({ sku: sku(), title: 'Refused by the receiver' });
    await delivery('item.created', failing.id);
    await running.waitFor('stdout', (text) => text.includes(failing.id));
    receiver.answer = 'drop';
    await sdk.items.update(failing.id, { quantity: 3 });
    await delivery('item.updated', failing.id);
    await running.waitFor('stdout', (text) => text.split('\n').length > 2);
    receiver.answer = 204;
    await sdk.items.delete(failing.id);
    const deleted = await delivery('item.deleted', failing.id);
    expect(deleted.verified).toMatchObject({ type: 'item.deleted', objectId: failing.id });
    await running.waitFor('stdout', (text) => text.includes('item.deleted'));

    const result = await running.stop('SIGTERM');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ type: 'item.created', objectId: failing.id, status: 500, error: 'not 2xx' }),
      expect.objectContaining({ type: 'item.updated', objectId: failing.id, status: null, error: expect.any(String) }),
      expect.objectContaining({ type: 'item.deleted', objectId: failing.id, status: 204, error: null }),
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ webhookId: expect.any(String), cursor: expect.any(String) });
      expect(line.durationMs).toEqual(expect.any(Number));
    }
    expect(result.stderr).toMatch(/Stopped: 1 delivered, 2 failed\.\n$/);
  });

  it('refuses a bad URL, secret or event type before anything starts (exit 2)', async () => {
    for (const args of [
      ['--forward-to', 'localhost:3000'],
      ['--forward-to', receiver.url, '--secret', 'not-a-secret'],
      ['--forward-to', receiver.url, '--events', 'item.sold'],
      [],
    ]) {
      const result = await run(['listen', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });
});
