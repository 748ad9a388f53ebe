import { z } from 'zod';
import { CHANGE_TYPES, LIMITS, WEBHOOK_DELIVERY_STATUSES, WEBHOOKS } from '../constants.js';
import { dateTime, text, uuid } from '../primitives.js';
import { ChangeSchema } from './changes.js';
import { listEnvelope } from './common.js';
import { codeList, count, listLimitQuery, nullable, pageQuery, strictObject } from './fields.js';

/** What an endpoint may subscribe to: a change type, or `*` for every type. */
export const WEBHOOK_EVENT_TYPES = [WEBHOOKS.allEvents, ...CHANGE_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const eventsText = `The change types delivered to the endpoint (${codeList(CHANGE_TYPES)}), or \`["${WEBHOOKS.allEvents}"]\` for every type, including types added later.`;

const eventsInput = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, 'must list at least one change type, or "*"')
  .max(WEBHOOK_EVENT_TYPES.length)
  .superRefine((events, ctx) => {
    if (new Set(events).size !== events.length) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must not list a type twice' });
    }
    if (events.length > 1 && events.includes(WEBHOOKS.allEvents)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${WEBHOOKS.allEvents}" must be the only entry` });
    }
  })
  .describe(eventsText);

/** Why a URL cannot be an endpoint's, or null. The scheme rule that depends on the server is checked there. */
function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL, such as https://example.com/webhooks';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a #fragment';
  return null;
}

const urlInput = text(WEBHOOKS.url)
  .superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .describe(
    `Where deliveries are POSTed: an \`https\` URL of at most ${WEBHOOKS.url.max} characters, without credentials or a fragment. Addresses in loopback, private, link-local, multicast and cloud-metadata ranges are refused when the delivery connects (plain \`http\` and such addresses only for hosts the server's operator allows in \`WEBHOOK_ALLOWED_HOSTS\`).`,
  );

const descriptionInput = text({ max: WEBHOOKS.description.max });

export const WebhookEndpointSchema = strictObject("A URL the workspace's changes are delivered to, signed.", {
  id: uuid.describe('Endpoint id.'),
  url: z.string().describe('Where deliveries are POSTed.'),
  description: nullable.string('Your note about the endpoint.'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).describe(eventsText),
  enabled: z
    .boolean()
    .describe(
      'Whether changes are delivered. A disabled endpoint gets no deliveries; those pending wait until it is enabled again.',
    ),
  disabledReason: nullable.string(
    `Why the endpoint is disabled: by a request, because its receiver answered 410 Gone, or because its deliveries failed for ${WEBHOOKS.disableAfterFailingHours} hours without one success. Null while enabled.`,
  ),
  disabledAt: nullable.dateTime('When it was disabled; null while enabled.'),
  failingSince: nullable.dateTime(
    `When its deliveries started failing, without a success since; null while they succeed. At ${WEBHOOKS.disableAfterFailingHours} hours the endpoint is disabled.`,
  ),
  previousSecretExpiresAt: nullable.dateTime(
    'After a secret rotation: until when the previous secret also signs each delivery (a second `v1,` signature). Null when only one secret signs.',
  ),
  createdAt: dateTime.describe('When the endpoint was created.'),
  updatedAt: nullable.dateTime('When the endpoint was last changed; null if never.'),
});

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z
    .string()
    .describe(
      `The signing secret (\`${WEBHOOKS.secretPrefix}\` + base64), shown only in this answer: store it where your receiver reads it.`,
    ),
}).describe('An endpoint with its new signing secret, shown this once.');

export const CreateWebhookEndpointBodySchema = z
  .object({
    url: urlInput,
    events: eventsInput,
    description: descriptionInput.optional().describe(`Your note, at most ${WEBHOOKS.description.max} characters.`),
  })
  .strict()
  .describe('A new webhook endpoint.');

export const UpdateWebhookEndpointBodySchema = z
  .object({
    url: urlInput.optional(),
    events: eventsInput.optional(),
    description: descriptionInput
      .nullable()
      .optional()
      .describe(`Your note, at most ${WEBHOOKS.description.max} characters; null clears it.`),
    enabled: z
      .boolean()
      .optional()
      .describe(
        'false disables the endpoint; true enables it again, clearing `disabledReason` and `failingSince`, and its pending deliveries resume.',
      ),
  })
  .strict()
  .describe('The fields to change; the others keep their values.');

export const ListWebhookEndpointsQuerySchema = z.object({ page: pageQuery, limit: listLimitQuery }).strict();

export const WebhookEndpointListSchema = listEnvelope(
  WebhookEndpointSchema,
  "A page of the workspace's webhook endpoints, oldest first.",
);

export const DeletedWebhookEndpointSchema = strictObject('Confirmation of a deletion.', {
  id: uuid.describe('Id of the deleted endpoint.'),
  deleted: z.literal(true).describe('Always true.'),
});

export const WebhookDeliverySchema = strictObject('One change sent, or to be sent, to one endpoint.', {
  id: uuid.describe('Delivery id.'),
  endpointId: uuid.describe('The endpoint it goes to.'),
  changeId: uuid.describe('The change it carries: also its `webhook-id`, the same on every attempt.'),
  changeType: z.enum(CHANGE_TYPES).describe("The change's type."),
  status: z
    .enum(WEBHOOK_DELIVERY_STATUSES)
    .describe(
      `\`pending\`: not yet accepted (waiting for its first attempt or a retry); \`succeeded\`: the receiver answered 2xx; \`failed\`: given up after ${WEBHOOKS.retryHours} hours of retries (replay sends it again).`,
    ),
  attempts: count('Attempts made so far.'),
  lastAttemptAt: nullable.dateTime('When the last attempt was made; null before the first.'),
  lastResponseStatus: nullable.integer(
    'The HTTP status the receiver answered the last attempt with; null before the first, or when it did not answer (see `lastError`).',
  ),
  lastDurationMs: nullable.integer('How long the last attempt took, in milliseconds.'),
  lastError: nullable.string('Why the last attempt failed; null when it succeeded or before the first.'),
  nextAttemptAt: nullable.dateTime('When the next attempt is due while pending; null otherwise.'),
  createdAt: dateTime.describe("When the delivery was queued (the change's commit, or a replay)."),
  deliveredAt: nullable.dateTime('When the receiver accepted it; null unless succeeded.'),
});

export const ListWebhookDeliveriesQuerySchema = z
  .object({
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .optional()
      .describe(`Only deliveries in this state: ${codeList(WEBHOOK_DELIVERY_STATUSES)}.`),
    page: pageQuery,
    limit: listLimitQuery,
  })
  .strict();

export const WebhookDeliveryListSchema = listEnvelope(
  WebhookDeliverySchema,
  "A page of an endpoint's deliveries, newest first.",
);

export const ReplayWebhookBodySchema = z
  .object({
    after: text(LIMITS.cursor).describe(
      "A changes cursor (from `GET /changes`, `GET /changes/cursor` or a delivery's `coinventory-changes-cursor` header): every change after it that the endpoint subscribes to is sent again.",
    ),
  })
  .strict()
  .describe('Where the replay starts.');

export const WebhookReplaySchema = strictObject('What a replay queued.', {
  queued: count('Deliveries queued: one per change after the cursor that the endpoint subscribes to.'),
  nextCursor: z.string().describe("The changes cursor at the last change replayed (the feed's end when it ran)."),
});

export const WebhookTestResultSchema = strictObject('The outcome of one signed `ping` sent to the endpoint now.', {
  webhookId: z.string().describe('The `webhook-id` the ping was sent with.'),
  succeeded: z.boolean().describe('True when the receiver answered 2xx.'),
  responseStatus: nullable.integer('The HTTP status the receiver answered; null when it did not answer.'),
  durationMs: count('How long the attempt took, in milliseconds.'),
  error: nullable.string('Why it failed; null when it succeeded.'),
});

/** The body of a test delivery: a ping, which carries no change. */
export const WebhookPingSchema = strictObject(
  'The test event `POST /webhook-endpoints/{id}/test` sends: no change, only proof the endpoint and its secret work.',
  {
    id: uuid.describe("The ping's id, also its `webhook-id`."),
    type: z.literal(WEBHOOKS.pingType).describe('Always `ping`.'),
    occurredAt: dateTime.describe('When the ping was sent.'),
    data: z.null().describe('Always null.'),
  },
);

/** Every body a webhook delivery can carry: a change, or a ping. */
export const WebhookEventSchema = z
  .union([ChangeSchema, WebhookPingSchema])
  .describe("A delivery's body: a Change exactly as the changes feed shows it, or a test `ping`.");
