// The document's `webhooks`: what a receiver is sent (a change, a test ping), with the delivery headers it verifies
// and the answers it may give.

import { WEBHOOKS } from '../constants.js';
import { COMPONENT_EXAMPLES } from './examples.js';
import type { OpenApiDocument, ParameterObject, ResponseObject, WebhookOperationObject } from './types.js';

/** The headers of every webhook delivery (Standard Webhooks 1.0, and the changes cursor). */
const WEBHOOK_HEADERS: ParameterObject[] = [
  {
    name: WEBHOOKS.headers.id,
    in: 'header',
    required: true,
    description:
      'The event id: the change id (the ping id for a ping). The same on every retry and replay of the change: de-duplicate by it.',
    schema: { type: 'string' },
    example: COMPONENT_EXAMPLES.Change.id,
  },
  {
    name: WEBHOOKS.headers.timestamp,
    in: 'header',
    required: true,
    description: `When this attempt was signed, in whole seconds since the Unix epoch. Refuse a delivery more than ${WEBHOOKS.toleranceSeconds} seconds from your clock: it may be a replayed capture.`,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1793610764',
  },
  {
    name: WEBHOOKS.headers.signature,
    in: 'header',
    required: true,
    description: `Space-separated signatures, each \`${WEBHOOKS.signatureVersion},\` + the base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{raw body}\` keyed with the base64-decoded part of the endpoint's secret after \`${WEBHOOKS.secretPrefix}\`. Two during the ${WEBHOOKS.previousSecretHours} hours after a rotation; accept the delivery if any one matches.`,
    schema: { type: 'string' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
  {
    name: WEBHOOKS.headers.changesCursor,
    in: 'header',
    required: false,
    description:
      'On a change: the changes-feed cursor just after it. Keep the newest one your receiver processed; after an outage, `GET /changes?after=` from it, or replay from it, to catch up.',
    schema: { type: 'string' },
  },
];

const RECEIVER_RESPONSES: Record<string, ResponseObject> = {
  '200': {
    description: `Any 2xx: the delivery is accepted. Answer within the server's delivery timeout (${WEBHOOKS.timeoutMs / 1000} s by default) and do slow work afterwards. Anything else, a timeout or a connection failure is retried with exponential backoff for ${WEBHOOKS.retryHours} hours; redirects are not followed.`,
  },
  '410': {
    description: 'Gone: the endpoint is disabled at once, and nothing more is sent to it until it is enabled again.',
  },
};

export function webhookOperations(): OpenApiDocument['webhooks'] {
  const post = (
    operationId: string,
    summary: string,
    description: string,
    schema: string,
  ): { post: WebhookOperationObject } => ({
    post: {
      operationId,
      summary,
      description,
      tags: ['Webhooks'],
      parameters: WEBHOOK_HEADERS,
      requestBody: {
        required: true,
        description: 'JSON, sent as `application/json`. Verify the signature over the raw bytes before parsing them.',
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${schema}` },
            example: (COMPONENT_EXAMPLES as Record<string, unknown>)[schema],
          },
        },
      },
      responses: RECEIVER_RESPONSES,
    },
  });
  return {
    change: post(
      'changeWebhook',
      'A change, pushed',
      "Each committed change an endpoint subscribes to is POSTed to its URL as the Change object the changes feed shows, at least once, signed with the endpoint's secret. Deliveries of one endpoint are sent in commit order while it answers; a retried one may arrive after later ones, so when order matters re-read the object, or follow the changes feed from the `coinventory-changes-cursor` of the last delivery you processed.",
      'Change',
    ),
    ping: post(
      'pingWebhook',
      'A test ping',
      'Sent by `POST /webhook-endpoints/{id}/test`: signed like every delivery, carrying no change.',
      'WebhookPing',
    ),
  };
}
