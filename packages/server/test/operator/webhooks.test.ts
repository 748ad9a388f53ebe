import { randomUUID } from 'node:crypto';
import {
  type CreateWebhookEndpointInput,
  WEBHOOKS,
  type WebhookEndpoint,
  WebhookEndpointSchema,
  type WebhookEndpointWithSecret,
  WebhookEndpointWithSecretSchema,
} from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Sql } from '../../src/db/types.js';
import { EXIT, executeOperatorCommand } from '../../src/operator/index.js';
import { ERROR_BODY } from '../support/errors.js';
import { expectStatus } from '../support/http.js';
import { type Api, createItem, freshApi } from '../support/items.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { uniqueSku } from '../support/routes.js';
import { serverWithOrganization } from '../support/server.js';

/**
 * The operator's webhook commands: `webhook list` (state, why disabled, failing since, deliveries pending and
 * failed), `webhook enable|disable|delete`. Run in-process against the suite's database, as the operator socket runs
 * them, and through the built binary as an operator runs them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_DISABLED = 'Disabled through the API.';
const OPERATOR_DISABLED = 'Disabled by an operator.';
const GONE = 'Disabled because the receiver answered 410 Gone.';
const HEADER = ['ENDPOINT', 'URL', 'EVENTS', 'STATE', 'FAILING SINCE', 'PENDING', 'FAILED'];

/** `webhook list --json`: each endpoint exactly as the API shows it, with its delivery counts. */
const SummaryJson = WebhookEndpointSchema.extend({
  pending: z.number().int().min(0),
  failed: z.number().int().min(0),
}).strict();
const SUMMARY_KEYS = [...Object.keys(WebhookEndpointSchema.shape), 'pending', 'failed'];
const DeletedJson = z.object({ id: z.string().regex(UUID), deleted: z.literal(true) }).strict();

/**
 * The rows of a text table: cells split where two or more spaces separate them. Every row's cells start at the
 * header's columns (the table is aligned), which is checked too.
 */
function tableRows(text: string): string[][] {
  expect(text.endsWith('\n'), text).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const starts = (line: string) => [...line.matchAll(/(?:^|(?<= {2}))\S/g)].map((match) => match.index ?? -1);
  const header = lines[0] ?? '';
  for (const line of lines) {
    expect(line, text).toBe(line.trimEnd());
    const cells = line.split(/ {2,}/);
    // Each cell starts where the header's column does (a row may have fewer cells only if it ends early).
    expect(starts(line), text).toEqual(starts(header).slice(0, cells.length));
  }
  return lines.map((line) => line.split(/ {2,}/));
}

async function createEndpoint(api: Api, body: CreateWebhookEndpointInput): Promise<WebhookEndpointWithSecret> {
  const response = await api.post('/webhook-endpoints', { body });
  expectStatus(response, 200);
  return WebhookEndpointWithSecretSchema.parse(response.body);
}

async function getEndpoint(api: Api, id: string): Promise<WebhookEndpoint> {
  const response = await api.get(`/webhook-endpoints/${id}`);
  expectStatus(response, 200);
  return WebhookEndpointSchema.parse(response.body);
}

describe('webhook commands, run in-process on the suite’s database', () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const run = (...argv: string[]) => executeOperatorCommand(argv, sql());
  const fresh = async (): Promise<{ ws: TestOrganization; api: Api }> => {
    const ws = await createTestOrganization(sql());
    return { ws, api: await freshApi(ctx.server, ws) };
  };
  const ok = (output: { exitCode: number; stdout: string; stderr: string }) => {
    expect(output.exitCode, output.stderr).toBe(EXIT.ok);
    expect(output.stderr).toBe('');
    return output.stdout;
  };

  it('webhook list says so when there are none', async () => {
    const { ws } = await fresh();
    expect(await run('webhook', 'list', '--org', ws.slug)).toEqual({
      exitCode: EXIT.ok,
      stdout: 'No webhook endpoints.\n',
      stderr: '',
    });
    expect(await run('webhook', 'list', '--org', ws.organizationId, '--json')).toEqual({
      exitCode: EXIT.ok,
      stdout: '[]\n',
      stderr: '',
    });
  });

  it('webhook list shows each endpoint’s state, why it is disabled, since when it fails, and its backlog', async () => {
    const { ws, api } = await fresh();
    const org = ws.organizationId;
    const healthy = await createEndpoint(api, { url: 'https://hooks.example.com/healthy', events: ['*'] });
    const paused = await createEndpoint(api, { url: 'https://hooks.example.com/paused', events: ['item.created'] });
    const failing = await createEndpoint(api, {
      url: 'https://hooks.example.com/failing',
      events: ['item.created', 'item.deleted'],
    });
    const gone = await createEndpoint(api, { url: 'https://hooks.example.com/gone', events: ['item.updated'] });

    // healthy: 3 pending; paused and gone: 1 pending, queued before they were disabled; failing: 1 failed, 1 pending.
    const item = await createItem(api, { sku: uniqueSku('OPS'), title: 'Listed' });
    expectStatus(await api.patch(`/items/${item.id}`, { body: { title: 'Changed' } }), 200);
    expectStatus(await api.patch(`/webhook-endpoints/${paused.id}`, { body: { enabled: false } }), 200);
    expectStatus(await api.delete(`/items/${item.id}`), 200);
    const failingSince = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    await sql()`
      UPDATE webhook_endpoints SET failing_since = ${failingSince}, consecutive_failures = 4
      WHERE organization_id = ${org} AND id = ${failing.id}
    `;
    await sql()`
      UPDATE webhook_deliveries d SET status = 'failed', attempts = 12, last_error = 'answered 500'
      FROM changes c
      WHERE d.organization_id = ${org} AND d.endpoint_id = ${failing.id}
        AND c.organization_id = d.organization_id AND c.position = d.change_position AND c.type = 'item.created'
    `;
    // gone: disabled by the worker when its receiver answered 410, after failing for a while.
    await sql()`
      UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${GONE}, disabled_at = now(),
        failing_since = ${failingSince}
      WHERE organization_id = ${org} AND id = ${gone.id}
    `;
    // Another organization's endpoints are not listed.
    const other = await fresh();
    await createEndpoint(other.api, { url: 'https://hooks.example.com/other', events: ['*'] });

    const listed = await run('webhook', 'list', '--org', ws.slug, '--json');
    const json = z.array(SummaryJson).parse(JSON.parse(ok(listed)));
    expect(listed.stdout).not.toContain(WEBHOOKS.secretPrefix);
    for (const entry of JSON.parse(listed.stdout) as object[]) expect(Object.keys(entry)).toEqual(SUMMARY_KEYS);
    const shown = await Promise.all([healthy, paused, failing, gone].map((e) => getEndpoint(api, e.id)));
    expect(json).toEqual([
      { ...shown[0], pending: 3, failed: 0 },
      { ...shown[1], pending: 1, failed: 0 },
      { ...shown[2], pending: 1, failed: 1 },
      { ...shown[3], pending: 1, failed: 0 },
    ]);
    expect(json.map((e) => [e.enabled, e.disabledReason, e.failingSince])).toEqual([
      [true, null, null],
      [false, API_DISABLED, null],
      [true, null, failingSince.toISOString()],
      [false, GONE, failingSince.toISOString()],
    ]);

    const text = ok(await run('webhook', 'list', '--org', ws.slug));
    expect(text).not.toContain(WEBHOOKS.secretPrefix);
    expect(tableRows(text)).toEqual([
      HEADER,
      [healthy.id, healthy.url, '*', 'enabled', '—', '3', '0'],
      [paused.id, paused.url, 'item.created', `disabled: ${API_DISABLED}`, '—', '1', '0'],
      [failing.id, failing.url, 'item.created,item.deleted', 'enabled', failingSince.toISOString(), '1', '1'],
      [gone.id, gone.url, 'item.updated', `disabled: ${GONE}`, failingSince.toISOString(), '1', '0'],
    ]);
    // By the organization's id, the same.
    expect(ok(await run('webhook', 'list', '--org', org))).toBe(text);
  });

  it('webhook disable and enable: the API shows the change; enabling clears the failing state and resumes', async () => {
    const { ws, api } = await fresh();
    const org = ws.organizationId;
    const endpoint = await createEndpoint(api, { url: 'https://hooks.example.com/toggle', events: ['*'] });
    await createItem(api, { sku: uniqueSku('TOGGLE'), title: 'Pending' });

    expect(await run('webhook', 'disable', '--org', ws.slug, '--endpoint', endpoint.id)).toEqual({
      exitCode: EXIT.ok,
      stdout: `Webhook endpoint ${endpoint.id} is disabled.\n`,
      stderr: '',
    });
    const disabled = await getEndpoint(api, endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: OPERATOR_DISABLED, failingSince: null });
    expect(Math.abs(Date.parse(disabled.disabledAt ?? '') - Date.now())).toBeLessThan(30_000);
    // Nothing is queued for it while it is disabled; what was pending stays.
    await createItem(api, { sku: uniqueSku('TOGGLE'), title: 'Not queued' });
    const pending = await sql()<{ count: number }[]>`
      SELECT count(*)::int AS count FROM webhook_deliveries
      WHERE organization_id = ${org} AND endpoint_id = ${endpoint.id} AND status = 'pending'
    `;
    expect(pending[0]?.count).toBe(1);

    // Disabling again (as JSON): the endpoint as the API shows it, unchanged in state.
    const again = await run('webhook', 'disable', '--org', org, '--endpoint', endpoint.id, '--json');
    const againJson = JSON.parse(ok(again)) as object;
    expect(Object.keys(againJson)).toEqual(Object.keys(WebhookEndpointSchema.shape));
    expect(WebhookEndpointSchema.parse(againJson)).toEqual({
      ...disabled,
      updatedAt: expect.any(String),
    });

    // It had been failing, and its pending delivery waits far ahead.
    await sql()`
      UPDATE webhook_endpoints SET failing_since = now() - interval '2 days', consecutive_failures = 9,
        retry_at = now() + interval '1 hour'
      WHERE organization_id = ${org} AND id = ${endpoint.id}
    `;
    await sql()`
      UPDATE webhook_deliveries SET next_attempt_at = now() + interval '6 hours', first_attempt_at = now() - interval '2 days'
      WHERE organization_id = ${org} AND endpoint_id = ${endpoint.id}
    `;
    expect(await run('webhook', 'enable', '--org', ws.slug, '--endpoint', endpoint.id)).toEqual({
      exitCode: EXIT.ok,
      stdout: `Webhook endpoint ${endpoint.id} is enabled.\n`,
      stderr: '',
    });
    const enabled = await getEndpoint(api, endpoint.id);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    const [row] = await sql()<{ consecutive_failures: number; retry_at: Date | null }[]>`
      SELECT consecutive_failures, retry_at FROM webhook_endpoints WHERE organization_id = ${org} AND id = ${endpoint.id}
    `;
    expect(row).toEqual({ consecutive_failures: 0, retry_at: null });
    const deliveries = await sql()<{ due: boolean; first_attempt_at: Date | null }[]>`
      SELECT next_attempt_at <= now() AS due, first_attempt_at FROM webhook_deliveries
      WHERE organization_id = ${org} AND endpoint_id = ${endpoint.id}
    `;
    expect(deliveries).toEqual([{ due: true, first_attempt_at: null }]);

    const enabledJson = await run('webhook', 'enable', '--org', ws.slug, '--endpoint', endpoint.id, '--json');
    expect(WebhookEndpointSchema.parse(JSON.parse(ok(enabledJson)))).toEqual({
      ...enabled,
      updatedAt: expect.any(String),
    });
  });

  it('webhook delete removes the endpoint and its deliveries', async () => {
    const { ws, api } = await fresh();
    const org = ws.organizationId;
    const doomed = await createEndpoint(api, { url: 'https://hooks.example.com/doomed', events: ['*'] });
    const kept = await createEndpoint(api, { url: 'https://hooks.example.com/kept', events: ['*'] });
    await createItem(api, { sku: uniqueSku('DELETE'), title: 'Queued twice' });

    expect(await run('webhook', 'delete', '--org', ws.slug, '--endpoint', doomed.id)).toEqual({
      exitCode: EXIT.ok,
      stdout: `Webhook endpoint ${doomed.id} deleted.\n`,
      stderr: '',
    });
    const missing = await api.get(`/webhook-endpoints/${doomed.id}`);
    expectStatus(missing, 404);
    expect(missing.body).toEqual(ERROR_BODY.NOT_FOUND);
    const rows = await sql()<{ endpoint_id: string }[]>`
      SELECT endpoint_id FROM webhook_deliveries WHERE organization_id = ${org}
    `;
    expect(rows).toEqual([{ endpoint_id: kept.id }]);

    const json = await run('webhook', 'delete', '--org', org, '--endpoint', kept.id, '--json');
    expect(DeletedJson.parse(JSON.parse(ok(json)))).toEqual({ id: kept.id, deleted: true });
    expect(await run('webhook', 'list', '--org', ws.slug)).toMatchObject({ stdout: 'No webhook endpoints.\n' });
  });

  it('exits 3 for an endpoint that is not there, or is another organization’s, and changes nothing', async () => {
    const { ws, api } = await fresh();
    const other = await fresh();
    const theirs = await createEndpoint(other.api, { url: 'https://hooks.example.com/theirs', events: ['*'] });
    const mine = await createEndpoint(api, { url: 'https://hooks.example.com/mine', events: ['*'] });
    const unknown = randomUUID();
    for (const command of ['enable', 'disable', 'delete']) {
      for (const id of [unknown, theirs.id]) {
        for (const json of [[], ['--json']]) {
          expect(await run('webhook', command, '--org', ws.slug, '--endpoint', id, ...json)).toEqual({
            exitCode: EXIT.notFound,
            stdout: '',
            stderr: `No webhook endpoint "${id}" in ${ws.slug}.\n`,
          });
        }
      }
    }
    const { secret: _secret, ...theirsShown } = theirs;
    expect(await getEndpoint(other.api, theirs.id)).toEqual(theirsShown);
    expect(await getEndpoint(api, mine.id)).toMatchObject({ enabled: true, updatedAt: null });

    for (const command of ['list', 'enable', 'disable', 'delete']) {
      const endpoint = command === 'list' ? [] : ['--endpoint', mine.id];
      expect(await run('webhook', command, '--org', 'no-such-org', ...endpoint)).toEqual({
        exitCode: EXIT.notFound,
        stdout: '',
        stderr: 'No organization with id or slug "no-such-org".\n',
      });
    }
    // The endpoint is looked up in the organization named, not in its own.
    expect((await run('webhook', 'disable', '--org', other.ws.slug, '--endpoint', mine.id)).exitCode).toBe(
      EXIT.notFound,
    );
    expect((await getEndpoint(api, mine.id)).enabled).toBe(true);
  });

  it('refuses missing or malformed options with exit 2, before touching anything', async () => {
    const { ws, api } = await fresh();
    const endpoint = await createEndpoint(api, { url: 'https://hooks.example.com/options', events: ['*'] });
    const usage = async (argv: string[], ...problems: string[]) => {
      const output = await run(...argv);
      expect(output.exitCode, output.stderr).toBe(EXIT.usage);
      expect(output.stdout).toBe('');
      for (const problem of problems) expect(output.stderr).toContain(problem);
      // One line, saying what to do.
      expect(output.stderr).toMatch(/^coinventory-server: [^\n]+; [^\n]+\n$/);
    };
    await usage(
      ['webhook', 'disable', '--org', ws.slug, '--endpoint', 'not-an-id'],
      'invalid --endpoint "not-an-id"; must be a webhook endpoint id (a UUID)',
    );
    await usage(
      ['webhook', 'enable', '--org', ws.slug],
      'webhook enable needs --endpoint <endpoint id>; for example: ',
    );
    await usage(['webhook', 'delete', '--endpoint', endpoint.id], 'webhook delete needs --org <id|slug>; ');
    await usage(['webhook', 'list'], 'webhook list needs --org <id|slug>; ');
    await usage(
      ['webhook', 'list', '--org', ws.slug, '--endpoint', endpoint.id],
      'unknown option --endpoint for webhook list; ',
    );
    await usage(
      ['webhook', 'delete', '--org', ws.slug, '--endpoint', endpoint.id, 'extra'],
      'unexpected argument "extra" for webhook delete; ',
    );
    expect(await getEndpoint(api, endpoint.id)).toMatchObject({ enabled: true, updatedAt: null });

    const help = await run('webhook', 'disable', '--help');
    expect(help.exitCode).toBe(EXIT.ok);
    expect(help.stdout).toMatch(
      /^Usage: coinventory-server webhook disable --org <id\|slug> --endpoint <endpoint id> \[--json\]\n/,
    );
  });
});
