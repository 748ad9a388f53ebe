import type {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookPing,
  WebhookReplay,
  WebhookTestResult,
} from '../../types.js';
import { cursor, itemUpdated } from './changes.js';
import { firstPage } from './common.js';

export const webhookEndpoint: WebhookEndpoint = {
  id: '7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
  url: 'https://shop.liberty-coin.example/hooks/coinventory',
  description: 'Storefront stock levels',
  events: ['item.created', 'item.updated', 'item.deleted'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-02T09:00:00.000Z',
  updatedAt: null,
};
export const webhookEndpointWithSecret: WebhookEndpointWithSecret = {
  ...webhookEndpoint,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Ydh2+5fKwI=',
};
export const webhookEndpointList: WebhookEndpointList = firstPage([webhookEndpoint], false);
export const webhookDelivery: WebhookDelivery = {
  id: '0f9e8d7c-6b5a-4f3e-9d2c-1b0a9f8e7d6c',
  endpointId: webhookEndpoint.id,
  changeId: itemUpdated.id,
  changeType: itemUpdated.type,
  status: 'succeeded',
  attempts: 2,
  lastAttemptAt: '2026-11-02T09:13:10.000Z',
  lastResponseStatus: 200,
  lastDurationMs: 84,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-11-02T09:12:44.000Z',
  deliveredAt: '2026-11-02T09:13:10.000Z',
};
export const webhookDeliveryList: WebhookDeliveryList = firstPage([webhookDelivery], false);
export const webhookReplay: WebhookReplay = { queued: 12, nextCursor: cursor };
export const webhookTestResult: WebhookTestResult = {
  webhookId: 'b1d7c2a4-3e5f-4a6b-8c9d-0e1f2a3b4c5d',
  succeeded: true,
  responseStatus: 204,
  durationMs: 63,
  error: null,
};
export const webhookPing: WebhookPing = {
  id: webhookTestResult.webhookId,
  type: 'ping',
  occurredAt: '2026-11-02T09:01:00.000Z',
  data: null,
};
