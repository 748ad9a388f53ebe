import { type ChangeType, WEBHOOKS } from '@coinventory/contract/constants';
import {
  type Change,
  type ChangeList,
  type Coinventory,
  generateWebhookSecret,
  signWebhook,
  type WebhookEventType,
} from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { errorMessage } from '../errors.js';
import type { IO } from '../io.js';
import { httpUrl, integer } from '../options.js';
import { dateColumn } from '../output/columns.js';
import { formatText, groupDigits } from '../output/format.js';
import type { OutputFormat } from '../output/render.js';
import { type Column, TableWriter } from '../output/table.js';
import { untilStopped } from '../signals.js';
import { type FeedPosition, readFeed } from './feed.js';
import { addOutputOptions, apiAction, changeTypesHelp, examples, type OutputOptions } from './shared.js';
import { webhookEvents } from './webhooks.js';

// `coinventory listen --forward-to <url>`: the organization's changes from now on, each POSTed to a local receiver as a
// webhook delivery would be (the same body and Standard Webhooks headers), signed with a local secret, so a receiver
// can be built and tried on one machine without an endpoint the server can reach. The Stripe CLI's `listen`, for
// Coinventory.

interface ListenOptions extends OutputOptions {
  forwardTo: string;
  events?: WebhookEventType[];
  secret?: string;
  /** Seconds between polls at the end of the feed. */
  interval: number;
  /** Seconds a receiver has to answer. */
  timeout: number;
}

/** What became of one change forwarded to the receiver. */
interface Delivery {
  /** When it was sent, ISO 8601. */
  at: string;
  change: Change;
  /** The receiver's status; undefined when it did not answer. */
  status: number | undefined;
  durationMs: number;
  /** Why it did not answer (or what a non-2xx meant): undefined for a 2xx. */
  error: string | undefined;
}

const DELIVERY_COLUMNS: readonly Column<Delivery>[] = [
  dateColumn('TIME', (d) => d.at, 'seconds'),
  { header: 'TYPE', value: (d) => d.change.type, shrink: 'never' },
  { header: 'OBJECT', value: (d) => d.change.objectId, shrink: 'never' },
  { header: 'STATUS', value: (d) => (d.status === undefined ? 'failed' : String(d.status)), reserve: 6 },
  { header: 'MS', value: (d) => groupDigits(d.durationMs), align: 'right', reserve: 6 },
  { header: 'ERROR', value: (d) => formatText(d.error ?? null), shrink: 'first' },
];

/** A secret as the API makes them, checked before anything starts: `whsec_` and the base64 of at least 16 bytes. */
function signingSecret(value: string): string {
  if (!/^whsec_[A-Za-z0-9+/]{22,}={0,2}$/.test(value)) {
    throw new InvalidArgumentError(
      `Must be a signing secret: ${WEBHOOKS.secretPrefix} followed by base64, as printed by an earlier run or 'coinventory webhooks create'.`,
    );
  }
  return value;
}

/** The feed's `types` for the events asked for: all types (no filter) for none or `*`. */
function feedTypes(events: readonly WebhookEventType[] | undefined): ChangeType[] | undefined {
  const types = events?.filter((event): event is ChangeType => event !== WEBHOOKS.allEvents);
  return types && types.length > 0 && types.length === events?.length ? types : undefined;
}

interface Forwarding {
  url: string;
  secret: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * POSTs one change to the receiver as a delivery: the Change's JSON, signed, with the changes cursor to resume after
 * it. Never throws: a receiver that fails or does not answer is reported, and the next change goes on.
 */
async function forward(change: Change, cursor: string, forwarding: Forwarding): Promise<Delivery> {
  const body = JSON.stringify(change);
  const signed = await signWebhook({ id: change.id, body, secret: forwarding.secret });
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), forwarding.timeoutMs);
  const stop = () => timeout.abort();
  forwarding.signal.addEventListener('abort', stop, { once: true });
  const at = new Date().toISOString();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(forwarding.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': `coinventory-cli/${packageJson.version} (listen)`,
        ...signed,
        [WEBHOOKS.headers.changesCursor]: cursor,
      },
      body,
      // As the server delivers: a redirect is the receiver's answer, not followed.
      redirect: 'manual',
      signal: timeout.signal,
    });
    const durationMs = elapsed();
    // The answer's body is not needed: stop reading it.
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { at, change, status: response.status, durationMs, error: ok ? undefined : 'not 2xx' };
  } catch (error) {
    const reason = forwarding.signal.aborted
      ? 'stopped'
      : timeout.signal.aborted
        ? `no answer within ${forwarding.timeoutMs / 1000} s`
        : errorMessage(error instanceof Error && error.cause instanceof Error ? error.cause : error);
    return { at, change, status: undefined, durationMs: elapsed(), error: reason };
  } finally {
    clearTimeout(timer);
    forwarding.signal.removeEventListener('abort', stop);
  }
}

/** One line per delivery: a table row (widths fixed by the first), or with --json one JSON object. */
function deliveryLine(format: OutputFormat, table: TableWriter<Delivery>, delivery: Delivery, cursor: string): string {
  if (format !== 'json') return table.rows([delivery]);
  const { at, change, status, durationMs, error } = delivery;
  return `${JSON.stringify({
    at,
    webhookId: change.id,
    type: change.type,
    objectId: change.objectId,
    occurredAt: change.occurredAt,
    cursor,
    status: status ?? null,
    durationMs,
    error: error ?? null,
  })}\n`;
}

/**
 * The cursor each change of a page is sent with. The last one's is the page's `nextCursor`; the feed gives no cursor
 * between changes, so an earlier one carries the cursor the page was read from, which resumes at or before it: a
 * receiver that resumes from it may see a change twice, never miss one.
 */
function cursors(page: ChangeList, before: string): string[] {
  return page.items.map((_, index) => (index === page.items.length - 1 ? page.nextCursor : before));
}

const LISTEN_HELP = `
Takes the feed's end now ('coinventory changes cursor'), then follows the changes feed
and POSTs each new change to the --forward-to URL as Coinventory delivers webhooks:
the body is the Change as JSON (as 'coinventory changes --json' prints it), with the
Standard Webhooks headers ${WEBHOOKS.headers.id} (the change id), ${WEBHOOKS.headers.timestamp} and
${WEBHOOKS.headers.signature} (v1, HMAC-SHA256 with the secret), and ${WEBHOOKS.headers.changesCursor}.
The receiver verifies them with the SDK's verifyWebhook (or any Standard Webhooks
library) and the secret printed at start; --secret reuses one across runs.

One line per delivery: time, type, object id, the receiver's status (or 'failed'),
milliseconds, and why it failed. A receiver that fails, answers non-2xx or is down is
reported and skipped (not retried: this is for development), and listening goes on.
The API failing or unreachable is retried until stopped. Ctrl-C or SIGTERM stops it
(exit 0). Each poll is one request against the key's rate limit.

A change that is not the last of the page read is sent with the cursor before that page
(the feed has no cursor between changes): resuming from it may repeat a change.`;

export function registerListen(program: Command): void {
  const listen = program
    .command('listen')
    .description("forward the organization's changes, signed like webhooks, to a local receiver as they happen")
    .addOption(
      new Option('--forward-to <url>', 'the receiver: an http(s) URL, e.g. http://localhost:4242/webhooks')
        .argParser(httpUrl('http://localhost:4242/webhooks'))
        .makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--events <types>',
        `only these change types, comma-separated (repeatable), or ${WEBHOOKS.allEvents} (default: every type)`,
      ).argParser(webhookEvents),
    )
    .addOption(
      new Option('--secret <whsec_…>', 'sign with this secret (default: a new one, printed at start)').argParser(
        signingSecret,
      ),
    )
    .addOption(
      new Option('--interval <seconds>', 'seconds between polls of the feed')
        .argParser(integer({ min: 1, max: 3600 }))
        .default(2),
    )
    .addOption(
      new Option('--timeout <seconds>', 'seconds the receiver has to answer')
        .argParser(integer({ min: 1, max: 600 }))
        .default(WEBHOOKS.timeoutMs / 1000),
    );
  addOutputOptions(listen, ['table', 'json'], 'print one JSON object per delivery (NDJSON)');
  listen.addHelpText(
    'after',
    `${LISTEN_HELP}\n\n${changeTypesHelp('--events', `; or ${WEBHOOKS.allEvents} (the default) for every type, types added to the API later included.`)}`,
  );
  apiAction<ListenOptions>(listen, async ({ options, format, io, client }) => {
    await untilStopped((signal) => listenAndForward({ client, options, format, io, signal }));
  });
  examples(listen, [
    'coinventory listen --forward-to http://localhost:4242/webhooks',
    'coinventory listen --forward-to http://localhost:4242/webhooks --events item.created,item.deleted',
    'coinventory listen --forward-to http://127.0.0.1:8080/hooks --secret whsec_… --json',
  ]);
}

interface ListenRun {
  client: Coinventory;
  options: ListenOptions;
  format: OutputFormat;
  io: IO;
  /** Aborted by Ctrl-C or SIGTERM: the normal end. */
  signal: AbortSignal;
}

/**
 * From the feed's end now, forwards each change to the receiver and prints what became of it, until stopped; then
 * says how many were delivered and how many failed.
 */
async function listenAndForward({ client, options, format, io, signal }: ListenRun): Promise<void> {
  const secret = options.secret ?? generateWebhookSecret();
  const types = feedTypes(options.events);
  const table = new TableWriter(DELIVERY_COLUMNS, { style: io.style, maxWidth: io.maxWidth, streaming: true });
  const forwarding = { url: options.forwardTo, secret, timeoutMs: options.timeout * 1000, signal };
  const position: FeedPosition = { cursor: undefined };
  let delivered = 0;
  let failed = 0;
  try {
    // From the feed's end now: only changes made from here on are forwarded.
    position.cursor = (await client.changes.cursor({ signal })).cursor;
    announce(io, options.forwardTo, types, secret, options.secret !== undefined);
    await readFeed(
      {
        client,
        types,
        follow: true,
        pollIntervalMs: options.interval * 1000,
        signal,
        io,
        waiting: 'Listening for changes… (Ctrl-C to stop)',
      },
      position,
      async (page) => {
        const before = position.cursor ?? page.nextCursor;
        for (const [index, cursor] of cursors(page, before).entries()) {
          const change = page.items[index];
          if (!change || signal.aborted) return;
          const delivery = await forward(change, cursor, forwarding);
          // Cut short by Ctrl-C: not the receiver's failure.
          if (signal.aborted && delivery.status === undefined) return;
          if (delivery.error === undefined) delivered += 1;
          else failed += 1;
          await io.out.write(deliveryLine(format, table, delivery, cursor));
        }
      },
    );
  } catch (error) {
    // Stopping may cut a request short: that is the end asked for.
    if (!signal.aborted) throw error;
  } finally {
    io.progress.clear();
  }
  io.notice(`Stopped: ${groupDigits(delivered)} delivered, ${groupDigits(failed)} failed.`);
}

/** The lines on stderr that start a run: where changes go, which, and the secret to verify them with. */
function announce(io: IO, url: string, types: readonly ChangeType[] | undefined, secret: string, given: boolean): void {
  io.notice(`Forwarding ${types ? `the changes of type ${types.join(', ')}` : 'every change'} to ${url}`);
  io.notice(`Signing secret: ${secret}${given ? '' : ' (pass --secret to reuse it)'}`);
  io.notice('Ready. Ctrl-C to stop.');
}
