import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookReplay,
  WebhookTestResult,
} from '@coinventory/sdk';
import type { IO } from '../io.js';
import { dateColumn, idColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { formatDate, formatText, groupDigits, NONE, type Style } from '../output/format.js';
import { type DetailView, type OutputFormat, printObject, type View } from '../output/render.js';
import { renderDetails } from '../output/table.js';

// How `webhooks` shows endpoints, their deliveries, a replay and a test ping: table columns, CSV fields and details.

/** What an endpoint's state reads as: enabled, failing, or disabled with why. */
function endpointStatus(endpoint: WebhookEndpoint): string {
  if (!endpoint.enabled) return 'disabled';
  return endpoint.failingSince === null ? 'enabled' : 'failing';
}

export const endpointView: DetailView<WebhookEndpoint> = {
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
  details: (endpoint, io) => endpointDetails(endpoint, io.style),
};

export function endpointDetails(endpoint: WebhookEndpoint | WebhookEndpointWithSecret, style: Style): string {
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
export async function printWithSecret(
  io: IO,
  format: OutputFormat,
  endpoint: WebhookEndpointWithSecret,
): Promise<void> {
  await printObject(io, format, endpoint, {
    details: (e) => endpointDetails(e, io.style),
    csv: [...endpointView.csv, 'secret'],
  });
  io.notice(io.errStyle.yellow('Store the secret now: it is not shown again. Receivers verify deliveries with it.'));
}

export const deliveryView: View<WebhookDelivery> = {
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

export function testDetails(result: WebhookTestResult, style: Style): string {
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

export const replayDetails = (replay: WebhookReplay, style: Style): string =>
  renderDetails(
    [
      ['Queued', `${groupDigits(replay.queued)} ${replay.queued === 1 ? 'delivery' : 'deliveries'}`],
      ['Next cursor', replay.nextCursor],
    ],
    style,
  );
