import { CHANGE_TYPES, LIMITS, WEBHOOK_DELIVERY_STATUSES, WEBHOOKS } from '@coinventory/contract/constants';
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventType,
  WebhookReplay,
  WebhookTestResult,
} from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { httpUrl, text, uuid } from '../options.js';
import { dateColumn, idColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { fieldsOption } from '../output/fields.js';
import { formatDate, formatText, groupDigits, NONE, type Style } from '../output/format.js';
import { type OutputFormat, printObject, type View } from '../output/render.js';
import { renderDetails } from '../output/table.js';
import { globalOptions, openSession } from '../session.js';
import { addListOptions, type ListOptions, pagesOf, printListed, resourceCommands } from './resource.js';
import {
  addOutputOptions,
  addYesOption,
  changeTypesHelp,
  checkConfirmable,
  commandPath,
  confirmDeletion,
  defined,
  examples,
  invocation,
  type OutputOptions,
} from './shared.js';

// `coinventory webhooks …`: the workspace's webhook endpoints (list, get, create, update, delete, rotate-secret), their
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

/** What an endpoint's state reads as: enabled, failing, or disabled with why. */
function endpointStatus(endpoint: WebhookEndpoint): string {
  if (!endpoint.enabled) return 'disabled';
  return endpoint.failingSince === null ? 'enabled' : 'failing';
}

const endpointView: View<WebhookEndpoint> = {
  noun: ['webhook endpoint', 'webhook endpoints'],
  columns: [
    idColumn(),
    { header: 'URL', value: (e) => e.url, shrink: 'first' },
    { header: 'EVENTS', value: (e) => e.events.join(',') },
    { header: 'STATUS', value: endpointStatus },
    { header: 'DESCRIPTION', value: (e) => formatText(e.description) },
    dateColumn('CREATED', (e) => e.createdAt),
  ],
  csv: csvColumns<WebhookEndpoint>({
    id: true,
    url: true,
    description: true,
    events: true,
    enabled: true,
    disabledReason: true,
    disabledAt: true,
    failingSince: true,
    previousSecretExpiresAt: true,
    createdAt: true,
    updatedAt: true,
  }),
};

function endpointDetails(endpoint: WebhookEndpoint | WebhookEndpointWithSecret, style: Style): string {
  const status = endpoint.enabled
    ? endpointStatus(endpoint)
    : `disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`;
  const secret: Array<readonly [string, string]> = 'secret' in endpoint ? [['Secret', endpoint.secret]] : [];
  return renderDetails(
    [
      ['ID', endpoint.id],
      ['URL', endpoint.url],
      ['Description', formatText(endpoint.description)],
      ['Events', endpoint.events.join(', ')],
      ['Status', status],
      ['Disabled at', formatDate(endpoint.disabledAt)],
      ['Failing since', formatDate(endpoint.failingSince)],
      ['Previous secret until', formatDate(endpoint.previousSecretExpiresAt)],
      ...secret,
      ['Created', formatDate(endpoint.createdAt)],
      ['Updated', formatDate(endpoint.updatedAt)],
    ],
    style,
  );
}

/** Prints an endpoint that carries its new secret, saying on stderr that it is shown this once. */
async function printWithSecret(io: IO, format: OutputFormat, endpoint: WebhookEndpointWithSecret): Promise<void> {
  await printObject(io, format, endpoint, {
    details: (e) => endpointDetails(e, io.style),
    csv: [...endpointView.csv, 'secret'],
  });
  io.notice(io.errStyle.yellow('Store the secret now: it is not shown again. Receivers verify deliveries with it.'));
}

const deliveryView: View<WebhookDelivery> = {
  noun: ['delivery', 'deliveries'],
  columns: [
    dateColumn('QUEUED', (d) => d.createdAt, 'seconds'),
    { header: 'TYPE', value: (d) => d.changeType, shrink: 'never' },
    { header: 'CHANGE', value: (d) => d.changeId, shrink: 'never' },
    { header: 'STATUS', value: (d) => d.status },
    { header: 'ATTEMPTS', value: (d) => String(d.attempts), align: 'right' },
    { header: 'LAST', value: (d) => formatText(d.lastResponseStatus), align: 'right' },
    { header: 'MS', value: (d) => (d.lastDurationMs === null ? NONE : groupDigits(d.lastDurationMs)), align: 'right' },
    dateColumn('NEXT ATTEMPT', (d) => d.nextAttemptAt, 'seconds'),
    { header: 'ERROR', value: (d) => formatText(d.lastError), shrink: 'first' },
  ],
  csv: csvColumns<WebhookDelivery>({
    id: true,
    endpointId: true,
    changeId: true,
    changeType: true,
    status: true,
    attempts: true,
    lastAttemptAt: true,
    lastResponseStatus: true,
    lastDurationMs: true,
    lastError: true,
    nextAttemptAt: true,
    createdAt: true,
    deliveredAt: true,
  }),
};

function testDetails(result: WebhookTestResult, style: Style): string {
  return renderDetails(
    [
      ['Webhook ID', result.webhookId],
      ['Result', result.succeeded ? style.green('succeeded') : style.red('failed')],
      ['Status', formatText(result.responseStatus)],
      ['Duration', `${groupDigits(result.durationMs)} ms`],
      ['Error', formatText(result.error)],
    ],
    style,
  );
}

const replayDetails = (replay: WebhookReplay, style: Style): string =>
  renderDetails(
    [
      ['Queued', `${groupDigits(replay.queued)} ${replay.queued === 1 ? 'delivery' : 'deliveries'}`],
      ['Next cursor', replay.nextCursor],
    ],
    style,
  );

const idArgument = (command: Command): Command => command.argument('<id>', "the endpoint's id (a UUID)", uuid);

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
  yes?: boolean;
}

interface DeliveriesOptions extends ListOptions {
  status?: WebhookDelivery['status'];
}

interface ReplayOptions extends OutputOptions {
  after: string;
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
    description: "manage the workspace's webhook endpoints: create, update, rotate secrets, see deliveries, replay",
    view: endpointView,
    list: {
      description: 'list webhook endpoints, oldest first (without their secrets)',
      filters: {},
      examples: ['coinventory webhooks list', "coinventory webhooks list --json | jq -r '.[] | [.id, .url] | @tsv'"],
    },
    get: {
      description: 'show one endpoint: its events, and why it is disabled or since when it is failing',
      details: (endpoint, io) => endpointDetails(endpoint, io.style),
      examples: ['coinventory webhooks get <id>', 'coinventory webhooks get <id> --json'],
    },
  });
  webhooks.addHelpText('after', WEBHOOKS_HELP);

  const create = addEndpointOptions(
    webhooks.command('create').description('add an endpoint; prints its signing secret, shown this once'),
    'create',
  );
  addOutputOptions(create);
  create.action(async (_options: EndpointOptions, command: Command) => {
    const { options, format, io } = invocation<EndpointOptions>(command);
    // Commander refuses a missing --url first; this proves it to the type.
    if (options.url === undefined) throw new UsageError('--url is required.', commandPath(command));
    const body: CreateWebhookEndpointInput = {
      url: options.url,
      events: options.events ?? [WEBHOOKS.allEvents],
      ...defined({ description: options.description }),
    };
    const { client } = openSession(globalOptions(command), io);
    await printWithSecret(io, format, await client.webhookEndpoints.create(body));
  });
  examples(create, [
    'coinventory webhooks create --url https://shop.example/hooks/coinventory',
    'coinventory webhooks create --url https://books.example/in --events item.created,item.deleted --description "accounting"',
    'secret=$(coinventory webhooks create --url https://shop.example/hooks --json | jq -r .secret)',
  ]);

  const update = addEndpointOptions(
    idArgument(webhooks.command('update').alias('edit').description('change the fields given of an endpoint')),
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
  update.action(async (id: string, _options: EndpointOptions, command: Command) => {
    const { options, format, io } = invocation<EndpointOptions>(command);
    const body = updateBody(options, command);
    const { client } = openSession(globalOptions(command), io);
    const endpoint = await client.webhookEndpoints.update(id, body);
    await printObject(io, format, endpoint, { details: (e) => endpointDetails(e, io.style), csv: endpointView.csv });
  });
  examples(update, [
    'coinventory webhooks update <id> --events item.updated',
    'coinventory webhooks update <id> --enable',
    'coinventory webhooks update <id> --url https://shop.example/hooks/v2 --clear-description',
  ]);

  const remove = addYesOption(
    idArgument(
      webhooks
        .command('delete')
        .alias('rm')
        .description('delete an endpoint and its deliveries, pending ones included'),
    ),
  );
  addOutputOptions(remove, ['table', 'json']);
  remove.action(async (id: string, _options: EndpointOptions, command: Command) => {
    const { options, format, io } = invocation<EndpointOptions>(command);
    const { client } = openSession(globalOptions(command), io);
    checkConfirmable(options.yes, io, command);
    if (!(await confirmDeletion(options.yes, `Delete webhook endpoint ${id} and its deliveries?`, io))) return;
    const result = await client.webhookEndpoints.delete(id);
    if (format === 'json') await printObject(io, format, result, { details: () => '' });
    else await io.out.write(`Deleted webhook endpoint ${result.id}\n`);
  });
  examples(remove, ['coinventory webhooks delete <id>', 'coinventory webhooks delete <id> --yes --json']);

  const rotate = idArgument(
    webhooks
      .command('rotate-secret')
      .description(
        `give an endpoint a new secret; the old one also signs for ${WEBHOOKS.previousSecretHours} hours (two signatures)`,
      ),
  );
  addOutputOptions(rotate);
  rotate.action(async (id: string, _options: OutputOptions, command: Command) => {
    const { format, io } = invocation(command);
    const { client } = openSession(globalOptions(command), io);
    await printWithSecret(io, format, await client.webhookEndpoints.rotateSecret(id));
  });
  examples(rotate, [
    'coinventory webhooks rotate-secret <id>',
    'coinventory webhooks rotate-secret <id> --json | jq -r .secret',
  ]);

  const deliveries = idArgument(
    webhooks
      .command('deliveries')
      .description("list an endpoint's deliveries, newest first: status, attempts, last answer, next attempt"),
  ).addOption(new Option('--status <status>', 'only deliveries in this state').choices(WEBHOOK_DELIVERY_STATUSES));
  addListOptions(deliveries, deliveryView.noun[1]);
  addOutputOptions(deliveries);
  deliveries.addOption(fieldsOption(deliveryView.csv));
  deliveries.action(async (id: string, _options: DeliveriesOptions, command: Command) => {
    const { options, format, io } = invocation<DeliveriesOptions>(command);
    const { client } = openSession(globalOptions(command), io);
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

  const replay = idArgument(
    webhooks
      .command('replay')
      .description('send again every change after a changes cursor that the endpoint subscribes to'),
  ).addOption(
    new Option(
      '--after <cursor>',
      `a changes cursor: from 'coinventory changes cursor', a page's, or a delivery's ${WEBHOOKS.headers.changesCursor} header`,
    )
      .argParser(text(LIMITS.cursor))
      .makeOptionMandatory(),
  );
  addOutputOptions(replay, ['table', 'json']);
  replay.action(async (id: string, _options: ReplayOptions, command: Command) => {
    const { options, format, io } = invocation<ReplayOptions>(command);
    const { client } = openSession(globalOptions(command), io);
    const result = await client.webhookEndpoints.replay(id, { after: options.after });
    await printObject(io, format, result, { details: (r) => replayDetails(r, io.style) });
  });
  examples(replay, [
    'coinventory webhooks replay <id> --after <cursor>',
    'coinventory webhooks replay <id> --after "$(cat last-handled.cursor)" --json',
  ]);

  const test = idArgument(
    webhooks
      .command('test')
      .description('send the endpoint a signed ping now and show its answer (exit 1 when it is not 2xx)'),
  );
  addOutputOptions(test, ['table', 'json']);
  test.action(async (id: string, _options: OutputOptions, command: Command) => {
    const { format, io } = invocation(command);
    const { client } = openSession(globalOptions(command), io);
    const result = await client.webhookEndpoints.test(id);
    await printObject(io, format, result, { details: (r) => testDetails(r, io.style) });
    // The request worked; the receiver did not: a script checking the endpoint needs to tell the two apart.
    if (!result.succeeded) process.exitCode = 1;
  });
  examples(test, ['coinventory webhooks test <id>', 'coinventory webhooks test <id> --json | jq .responseStatus']);
}
