/** Webhooks: endpoints, deliveries written in each change's transaction, their worker, signing and the SSRF guard. */
import { subscribeToChanges } from '../changes/index.js';
import { enqueueDeliveries } from './store.js';

// Every change recorded queues its deliveries in its own transaction. Here, where the module is loaded, so that every
// process and test that records changes (they load this index: the router, the operator's commands) subscribes.
subscribeToChanges('webhooks', enqueueDeliveries);

export { type AddressPolicy, addressPolicy } from './address-policy.js';
export { addressPolicyFromEnv, webhookWorkerFromEnv } from './from-env.js';
export { listEndpoints, removeEndpoint, setEnabled } from './operator.js';
export { endpointRead, webhooksRoutes } from './routes.js';
export { countEndpoints, moveEndpointsToSandbox } from './sandbox.js';
export type { WebhookSettings } from './service.js';
export { enqueueDeliveries } from './store.js';
export { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './worker.js';
