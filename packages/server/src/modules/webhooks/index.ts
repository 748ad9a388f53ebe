/** Webhooks: endpoints, deliveries written in each change's transaction, their worker, signing and the SSRF guard. */
export { type AddressPolicy, addressPolicy } from './address-policy.js';
export { addressPolicyFromEnv, webhookWorkerFromEnv } from './from-env.js';
export { listEndpoints, removeEndpoint, setEnabled } from './operator.js';
export { webhooksRoutes } from './routes.js';
export type { WebhookSettings } from './service.js';
export { endpointRead } from './store.js';
export { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './worker.js';
