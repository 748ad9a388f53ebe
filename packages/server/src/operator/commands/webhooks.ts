import { z } from 'zod';
import * as webhooks from '../../modules/webhooks/index.js';
import { date, table } from '../format.js';
import { ORG_ONLY, org, string } from '../options.js';
import { spec } from '../spec.js';

const endpoint = z.string({ required_error: 'is required' }).uuid('must be a webhook endpoint id (a UUID)');

/** Webhook endpoints: their state, why one is disabled, and turning them off and on. */
export const WEBHOOKS_COMMANDS = [
  spec({
    name: 'webhook list',
    summary:
      "List an organization's webhook endpoints: enabled or why disabled, failing since when, and deliveries pending and failed.",
    synopsis: '--org <id|slug>',
    example: 'coinventory-server webhook list --org liberty-coin',
    ...ORG_ONLY,
    run: (sql, input) => webhooks.listEndpoints(sql, input),
    text: (endpoints) =>
      endpoints.length === 0
        ? 'No webhook endpoints.'
        : table([
            ['ENDPOINT', 'URL', 'EVENTS', 'STATE', 'FAILING SINCE', 'PENDING', 'FAILED'],
            ...endpoints.map((e) => [
              e.id,
              e.url,
              e.events.join(','),
              e.enabled ? 'enabled' : `disabled: ${e.disabledReason ?? ''}`,
              e.failingSince === null ? '—' : date(new Date(e.failingSince)),
              String(e.pending),
              String(e.failed),
            ]),
          ]),
  }),
  spec({
    name: 'webhook disable',
    summary: 'Disable an endpoint: nothing is sent to it; its pending deliveries wait until it is enabled again.',
    synopsis: '--org <id|slug> --endpoint <endpoint id>',
    example: 'coinventory-server webhook disable --org liberty-coin --endpoint 7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
    options: { org: string, endpoint: string },
    input: z.object({ org, endpoint }).transform((v) => ({ ...v, enabled: false })),
    run: (sql, input) => webhooks.setEnabled(sql, input),
    text: (e) => `Webhook endpoint ${e.id} is disabled.`,
  }),
  spec({
    name: 'webhook enable',
    summary: 'Enable an endpoint again: its failing state is cleared and its pending deliveries are sent at once.',
    synopsis: '--org <id|slug> --endpoint <endpoint id>',
    example: 'coinventory-server webhook enable --org liberty-coin --endpoint 7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
    options: { org: string, endpoint: string },
    input: z.object({ org, endpoint }).transform((v) => ({ ...v, enabled: true })),
    run: (sql, input) => webhooks.setEnabled(sql, input),
    text: (e) => `Webhook endpoint ${e.id} is enabled.`,
  }),
  spec({
    name: 'webhook delete',
    summary: 'Delete an endpoint and its deliveries, pending ones included.',
    synopsis: '--org <id|slug> --endpoint <endpoint id>',
    example: 'coinventory-server webhook delete --org liberty-coin --endpoint 7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
    options: { org: string, endpoint: string },
    input: z.object({ org, endpoint }),
    run: (sql, input) => webhooks.removeEndpoint(sql, input),
    text: (e) => `Webhook endpoint ${e.id} deleted.`,
  }),
] as const;
