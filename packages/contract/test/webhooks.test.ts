import { describe, expect, it } from 'vitest';
import { CHANGE_TYPES, WEBHOOKS } from '../src/constants.js';
import { COMPONENT_EXAMPLES } from '../src/openapi/examples.js';
import { generateOpenApiDocument } from '../src/openapi/generate.js';
import {
  CreateWebhookEndpointBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookEventSchema,
} from '../src/schemas/webhook.js';

const create = (body: Record<string, unknown>) =>
  CreateWebhookEndpointBodySchema.safeParse({ url: 'https://example.com/hooks', events: ['*'], ...body });
const messages = (result: ReturnType<typeof create>) =>
  result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('webhook endpoint bodies', () => {
  it('take every change type, or "*" alone', () => {
    expect(create({ events: [...CHANGE_TYPES] }).success).toBe(true);
    expect(create({ events: ['*'] }).success).toBe(true);
    expect(messages(create({ events: [] }))).toEqual(['events: must list at least one change type, or "*"']);
    expect(messages(create({ events: ['*', 'item.created'] }))).toEqual(['events: "*" must be the only entry']);
    expect(messages(create({ events: ['item.created', 'item.created'] }))).toEqual([
      'events: must not list a type twice',
    ]);
    expect(create({ events: ['invoice.paid'] }).success).toBe(false);
  });

  it('take an absolute http(s) URL without credentials or fragment, within its bound', () => {
    expect(create({ url: 'http://127.0.0.1:8080/hooks?x=1' }).success).toBe(true);
    expect(messages(create({ url: 'example.com/hooks' }))).toEqual([
      'url: must be an absolute URL, such as https://example.com/webhooks',
    ]);
    expect(messages(create({ url: 'ftp://example.com/' }))).toEqual(['url: must be an https URL']);
    expect(messages(create({ url: 'https://user:pw@example.com/' }))).toEqual([
      'url: must not carry a user name or password',
    ]);
    expect(messages(create({ url: 'https://example.com/#x' }))).toEqual(['url: must not have a #fragment']);
    const long = `https://example.com/${'a'.repeat(WEBHOOKS.url.max)}`;
    expect(create({ url: long }).success).toBe(false);
  });

  it('refuse unknown fields, and let PATCH clear the description', () => {
    expect(create({ secret: 'whsec_x' }).success).toBe(false);
    expect(UpdateWebhookEndpointBodySchema.safeParse({ description: null, enabled: false }).success).toBe(true);
    expect(UpdateWebhookEndpointBodySchema.safeParse({ events: [] }).success).toBe(false);
  });
});

describe('the OpenAPI webhooks section', () => {
  const document = generateOpenApiDocument();

  it('describes the change and ping deliveries with the Standard Webhooks headers', () => {
    expect(Object.keys(document.webhooks)).toEqual(['change', 'ping']);
    for (const [name, { post }] of Object.entries(document.webhooks)) {
      const headers = post.parameters.map((parameter) => parameter.name);
      expect(headers, name).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
        'coinventory-changes-cursor',
      ]);
      expect(post.requestBody.content['application/json']?.schema, name).toEqual({
        $ref: `#/components/schemas/${name === 'change' ? 'Change' : 'WebhookPing'}`,
      });
      expect(Object.keys(post.responses), name).toEqual(['200', '410']);
    }
  });

  it('publishes bodies a receiver can parse as webhook events', () => {
    expect(WebhookEventSchema.parse(COMPONENT_EXAMPLES.Change)).toEqual(COMPONENT_EXAMPLES.Change);
    expect(WebhookEventSchema.parse(COMPONENT_EXAMPLES.WebhookPing)).toEqual(COMPONENT_EXAMPLES.WebhookPing);
  });
});
