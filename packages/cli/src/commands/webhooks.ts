import { CHANGE_TYPES, LIMITS, WEBHOOK_DELIVERY_STATUSES, WEBHOOKS } from '@coinventory/contract/constants';
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDelivery,
  WebhookEventType,
} from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../errors.js';
import { httpUrl, text, uuid } from '../options.js';
import { fieldsOption } from '../output/fields.js';
import { groupDigits } from '../output/format.js';
import { printObject, printOne } from '../output/render.js';
import { deleteCommand } from './delete.js';
import { addListOptions, type ListOptions, pagesOf, printListed, resourceCommands, statusOption } from './resource.js';
import {
  addOutputOptions,
  apiAction,
  changeTypesHelp,
  commandPath,
  defined,
  examples,
  LIST_JSON_HELP,
  type OutputOptions,
  writeAction,
} from './shared.js';
import { deliveryView, endpointView, printWithSecret, replayDetails, testDetails } from './webhook-views.js';

// `coinventory webhooks …`: the organization's webhook endpoints (list, get, create, update, delete, rotate-secret), their
// deliveries, replaying changes to one, and sending it a test ping.

/** One `--events` value: change types, comma-separated (repeatable), or `*` alone for every type. */
export function webhookEvents(value: string, previous: WebhookEventType[] | undefined): WebhookEventType[] {
  const events = [...(previous ?? [])];
  for (const part of value.split(',').map((word) => word.trim())) {
    const event = [WEBHOOKS.allEvents, ...CHANGE_TYPES].find((candidate) => candidate === part);
    if (event === undefined) {
      throw new InvalidArgumentError(
        `${JSON.stringify(part)} is not a change type. Allowed: ${CHANGE_TYPES.join(', ')} (comma-separated), or ${WEBHOOKS.allEvents} for every type.`,
      );
    }
    if (!events.includes(event)) events.push(event);
  }
  if (events.length > 1 && events.includes(WEBHOOKS.allEvents)) {
    throw new InvalidArgumentError(`${WEBHOOKS.allEvents} stands for every type: give it alone.`);
  }
  return events;
}

/** An endpoint's URL: absolute http(s), within the contract's bounds. The server checks the rest (https, addresses). */
const endpointUrl = (value: string): string => httpUrl('https://shop.example/webhooks')(text(WEBHOOKS.url)(value));

/** A `webhooks` subcommand about one endpoint, which its `<id>` argument names. */
const endpointCommand = (webhooks: Command, name: string, description: string): Command =>
  webhooks.command(name).description(description).argument('<id>', "the endpoint's id (a UUID)", uuid);

/** `--url`, `--events` and `--description`: what create takes, and update too. */
function addEndpointOptions(command: Command, mode: 'create' | 'update'): Command {
  const url = new Option(
    '--url <url>',
    `where deliveries are POSTed: https (at most ${groupDigits(WEBHOOKS.url.max)} chars)`,
  ).argParser(endpointUrl);
  if (mode === 'create') url.makeOptionMandatory();
  return command
    .addOption(url)
    .addOption(
      new Option(
        '--events <types>',
        `change types delivered, comma-separated (repeatable), or ${WEBHOOKS.allEvents} for every type${mode === 'create' ? ` (default: ${WEBHOOKS.allEvents})` : ''}`,
      ).argParser(webhookEvents),
    )
    .addOption(
      new Option(
        '--description <text>',
        `your note (at most ${groupDigits(WEBHOOKS.description.max)} chars)`,
      ).argParser(text({ max: WEBHOOKS.description.max })),
    );
}

interface EndpointOptions extends OutputOptions {
  url?: string;
  events?: WebhookEventType[];
  description?: string;
  clearDescription?: boolean;
  enable?: boolean;
  disable?: boolean;
}

interface DeliveriesOptions extends ListOptions {
  status?: WebhookDelivery['status'];
}

interface ReplayOptions extends OutputOptions {
  after: string;
}

/** The create's body. */
function createBody(options: EndpointOptions, command: Command): CreateWebhookEndpointInput {
  // Commander refuses a missing --url first; this proves it to the type.
  if (options.url === undefined) throw new UsageError('--url is required.', commandPath(command));
  return {
    url: options.url,
    events: options.events ?? [WEBHOOKS.allEvents],
    ...defined({ description: options.description }),
  };
}

/** The update's body; nothing to change is a usage error, found before any request. */
function updateBody(options: EndpointOptions, command: Command): UpdateWebhookEndpointInput {
  const body: UpdateWebhookEndpointInput = defined({
    url: options.url,
    events: options.events,
    description: options.clearDescription ? null : options.description,
    enabled: options.enable ? true : options.disable ? false : undefined,
  });
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      'Nothing to update: give --url, --events, --description, --clear-description, --enable or --disable.',
      commandPath(command),
    );
  }
  return body;
}

const WEBHOOKS_HELP = `
Each change of the types an endpoint subscribes to is POSTed to its URL as JSON (the
Change as the changes feed shows it), signed with the endpoint's secret (Standard
Webhooks: headers ${WEBHOOKS.headers.id}, ${WEBHOOKS.headers.timestamp}, ${WEBHOOKS.headers.signature}; and
${WEBHOOKS.headers.changesCursor}). Failed deliveries are retried for ${WEBHOOKS.retryHours} hours; an
endpoint failing for ${WEBHOOKS.disableAfterFailingHours} hours, or answered 410 Gone, is disabled.
To try a receiver on this machine without an endpoint, see 'coinventory listen'.

${changeTypesHelp('--events', `; or ${WEBHOOKS.allEvents} (the default for create) for every type, types added to the API later included.`)}`;

export function registerWebhooks(program: Command): void {
  const webhooks = resourceCommands(program, {
    name: 'webhookEndpoints',
    command: 'webhooks',
    description: "manage the organization's webhook endpoints: create, update, rotate secrets, see deliveries, replay",
    help: WEBHOOKS_HELP,
    view: endpointView,
    list: {
      description: 'list webhook endpoints, oldest first (without their secrets)',
      filters: {},
      examples: [
        'coinventory webhooks list',
        "coinventory webhooks list --json | jq -r '.items[] | [.id, .url] | @tsv'",
      ],
    },
    get: {
      description: 'show one endpoint: its events, and why it is disabled or since when it is failing',
    },
  });

  registerWebhookCreate(webhooks);
  registerWebhookUpdate(webhooks);
  registerWebhookDelete(webhooks);
  registerWebhookRotateSecret(webhooks);
  registerWebhookDeliveries(webhooks);
  registerWebhookReplay(webhooks);
  registerWebhookTest(webhooks);
}

/** `webhooks create`: a new endpoint, printed with its secret. */
function registerWebhookCreate(webhooks: Command): void {
  const create = addEndpointOptions(
    webhooks.command('create').description('add an endpoint; prints its signing secret, shown this once'),
    'create',
  );
  addOutputOptions(create);
  writeAction(create, createBody, async ({ format, io, client }, body) => {
    await printWithSecret(io, format, await client.webhookEndpoints.create(body));
  });
  examples(create, [
    'coinventory webhooks create --url https://shop.example/hooks/coinventory',
    'coinventory webhooks create --url https://books.example/in --events item.created,item.deleted --description "accounting"',
    'secret=$(coinventory webhooks create --url https://shop.example/hooks --json | jq -r .secret)',
  ]);
}

/** `webhooks update`: the fields given, enabling or disabling it. */
function registerWebhookUpdate(webhooks: Command): void {
  const update = addEndpointOptions(
    endpointCommand(webhooks, 'update', 'change the fields given of an endpoint').alias('edit'),
    'update',
  )
    .addOption(new Option('--clear-description', 'remove the description').conflicts('description'))
    .addOption(
      new Option('--enable', 'enable it again (clearing why it was disabled); its pending deliveries resume').conflicts(
        'disable',
      ),
    )
    .addOption(new Option('--disable', 'stop deliveries to it; pending ones wait until it is enabled'));
  addOutputOptions(update);
  writeAction<EndpointOptions, UpdateWebhookEndpointInput, [string]>(update, updateBody, async (call, body, id) => {
    const { format, io, client } = call;
    const endpoint = await client.webhookEndpoints.update(id, body);
    await printOne(io, format, endpoint, endpointView);
  });
  examples(update, [
    'coinventory webhooks update <id> --events item.updated',
    'coinventory webhooks update <id> --enable',
    'coinventory webhooks update <id> --url https://shop.example/hooks/v2 --clear-description',
  ]);
}

/** `webhooks delete`: an endpoint and its deliveries, after a question. */
function registerWebhookDelete(webhooks: Command): void {
  const remove = endpointCommand(
    webhooks,
    'delete',
    'delete an endpoint and its deliveries, pending ones included',
  ).alias('rm');
  deleteCommand(remove, async (id: string, client) => ({
    question: `Delete webhook endpoint ${id} and its deliveries?`,
    remove: () => client.webhookEndpoints.delete(id),
    deleted: (deleted) => `Deleted webhook endpoint ${deleted}`,
  }));
  examples(remove, ['coinventory webhooks delete <id>', 'coinventory webhooks delete <id> --yes --json']);
}

/** `webhooks rotate-secret`: a new secret, printed once. */
function registerWebhookRotateSecret(webhooks: Command): void {
  const rotate = endpointCommand(
    webhooks,
    'rotate-secret',
    `give an endpoint a new secret; the old one also signs for ${WEBHOOKS.previousSecretHours} hours (two signatures)`,
  );
  addOutputOptions(rotate);
  apiAction(rotate, async ({ format, io, client }, id: string) => {
    await printWithSecret(io, format, await client.webhookEndpoints.rotateSecret(id));
  });
  examples(rotate, [
    'coinventory webhooks rotate-secret <id>',
    'coinventory webhooks rotate-secret <id> --json | jq -r .secret',
  ]);
}

/** `webhooks deliveries`: an endpoint's deliveries, a page or --all. */
function registerWebhookDeliveries(webhooks: Command): void {
  const deliveries = endpointCommand(
    webhooks,
    'deliveries',
    "list an endpoint's deliveries, newest first: status, attempts, last answer, next attempt",
  ).addOption(statusOption('deliveries', WEBHOOK_DELIVERY_STATUSES));
  addListOptions(deliveries, deliveryView.noun[1]);
  addOutputOptions(deliveries, undefined, LIST_JSON_HELP);
  deliveries.addOption(fieldsOption(deliveryView.csv));
  apiAction<DeliveriesOptions, [string]>(deliveries, async ({ options, format, io, client }, id) => {
    const list = client.webhookEndpoints.deliveries(
      id,
      defined({ status: options.status, page: options.page, limit: options.limit }),
    );
    await printListed(io, deliveryView, { format, all: options.all === true, fields: options.fields }, () =>
      pagesOf(list, options.all),
    );
  });
  examples(deliveries, [
    'coinventory webhooks deliveries <id>',
    'coinventory webhooks deliveries <id> --status failed --all --output csv > failed.csv',
  ]);
}

/** `webhooks replay`: the changes after a cursor, queued to the endpoint again. */
function registerWebhookReplay(webhooks: Command): void {
  const replay = endpointCommand(
    webhooks,
    'replay',
    'send again every change after a changes cursor that the endpoint subscribes to',
  ).addOption(
    new Option(
      '--after <cursor>',
      `a changes cursor: from 'coinventory changes cursor', a page's, or a delivery's ${WEBHOOKS.headers.changesCursor} header`,
    )
      .argParser(text(LIMITS.cursor))
      .makeOptionMandatory(),
  );
  addOutputOptions(replay, ['table', 'json']);
  apiAction<ReplayOptions, [string]>(replay, async ({ options, format, io, client }, id) => {
    const result = await client.webhookEndpoints.replay(id, { after: options.after });
    await printObject(io, format, result, { details: (r) => replayDetails(r, io.style) });
  });
  examples(replay, [
    'coinventory webhooks replay <id> --after <cursor>',
    'coinventory webhooks replay <id> --after "$(cat last-handled.cursor)" --json',
  ]);
}

/** `webhooks test`: a signed ping, and the receiver's answer. */
function registerWebhookTest(webhooks: Command): void {
  const test = endpointCommand(
    webhooks,
    'test',
    'send the endpoint a signed ping now and show its answer (exit 1 when it is not 2xx)',
  );
  addOutputOptions(test, ['table', 'json']);
  apiAction(test, async ({ format, io, client }, id: string) => {
    const result = await client.webhookEndpoints.test(id);
    await printObject(io, format, result, { details: (r) => testDetails(r, io.style) });
    // The request worked; the receiver did not: a script checking the endpoint needs to tell the two apart.
    if (!result.succeeded) process.exitCode = 1;
  });
  examples(test, ['coinventory webhooks test <id>', 'coinventory webhooks test <id> --json | jq .responseStatus']);
}
