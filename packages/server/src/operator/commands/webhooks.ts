import { z } from 'zod';
import * as webhooks from '../../modules/webhooks/index.js';
import { date, table } from '../format.js';
import { ORG_ONLY, org, string } from '../options.js';
import { spec } from '../spec.js';

const endpoint = z.string({ required_error: 'is required' }).uuid('must be a webhook endpoint id (a UUID)');

const ENDPOINT_SYNOPSIS = '--org <id|slug> --endpoint <endpoint id>';
const ENDPOINT_EXAMPLE = '--org liberty-coin --endpoint 7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e';

/** `webhook enable` or `webhook disable`: one endpoint turned on or off. */
const switchCommand = (enabled: boolean, summary: string) => {
  const verb = enabled ? 'enable' : 'disable';
  return spec({
    name: `webhook ${verb}`,
    summary,
    synopsis: ENDPOINT_SYNOPSIS,
    example: `coinventory-server webhook ${verb} ${ENDPOINT_EXAMPLE}`,
    options: { org: string, endpoint: string },
    input: z.object({ org, endpoint }).transform((v) => ({ ...v, enabled })),
    run: (sql, input) => webhooks.setEnabled(sql, input),
    text: (e) => `Webhook endpoint ${e.id} is ${verb}d.`,
  });
};

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
  switchCommand(
    false,
    'Disable an endpoint: nothing is sent to it; its pending deliveries wait until it is enabled again.',
  ),
  switchCommand(
    true,
    'Enable an endpoint again: its failing state is cleared and its pending deliveries are sent at once.',
  ),
  spec({
    name: 'webhook delete',
    summary: 'Delete an endpoint and its deliveries, pending ones included.',
    synopsis: ENDPOINT_SYNOPSIS,
    example: `coinventory-server webhook delete ${ENDPOINT_EXAMPLE}`,
    options: { org: string, endpoint: string },
    input: z.object({ org, endpoint }),
    run: (sql, input) => webhooks.removeEndpoint(sql, input),
    text: (e) => `Webhook endpoint ${e.id} deleted.`,
  }),
] as const;
