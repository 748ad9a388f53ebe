import type {
  CreateWebhookEndpointInput,
  DeletedWebhookEndpoint,
  ListWebhookDeliveriesParams,
  ListWebhookEndpointsParams,
  ReplayWebhookInput,
  UpdateWebhookEndpointInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookReplay,
  WebhookTestResult,
} from '@coinventory/contract';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  ConditionalGetOptions,
  RequestOptions,
  SendOptions,
  UnconditionalOptions,
  WriteOptions,
} from '../core/transport.js';
import { Resource } from './resource.js';

/**
 * The organization's webhook endpoints: `client.webhookEndpoints`. Each gets the changes of the types it subscribes to
 * POSTed to its URL, signed with its secret; verify them with `verifyWebhook`.
 */
export class WebhookEndpoints extends Resource {
  /** Lists endpoints, oldest first, without their secrets. Await it for one page, or iterate it for every endpoint. */
  list(
    params: ListWebhookEndpointsParams = {},
    options?: RequestOptions,
  ): PagePromise<WebhookEndpoint, ListWebhookEndpointsParams> {
    return this.transport.requestList('webhookEndpoints.list', params, options);
  }

  /**
   * Adds an endpoint and returns it with its signing `secret`, shown this once: store it where the receiver reads it.
   * Throws `BadRequestError` for a URL the server refuses or past the organization's limit of endpoints.
   */
  create(body: CreateWebhookEndpointInput, options?: WriteOptions): APIPromise<WebhookEndpointWithSecret> {
    return this.transport.request('webhookEndpoints.create', { body }, options);
  }

  /**
   * Gets one endpoint, with why it is disabled or since when it is failing. Throws `NotFoundError` for an unknown id.
   * With `ifNoneMatch`, resolves to `NOT_MODIFIED` when it has not changed.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<WebhookEndpoint | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<WebhookEndpoint>;
  get(id: string, options?: SendOptions): APIPromise<WebhookEndpoint | NotModified> {
    return this.transport.request('webhookEndpoints.get', { params: { id } }, options);
  }

  /**
   * Changes the fields sent (`url`, `events`, `description`, `enabled`) and returns the endpoint. `enabled: true`
   * enables a disabled endpoint again, and its pending deliveries resume.
   */
  update(id: string, body: UpdateWebhookEndpointInput, options?: WriteOptions): APIPromise<WebhookEndpoint> {
    return this.transport.request('webhookEndpoints.update', { params: { id }, body }, options);
  }

  /** Deletes the endpoint and its deliveries, pending ones included. */
  delete(id: string, options?: WriteOptions): APIPromise<DeletedWebhookEndpoint> {
    return this.transport.request('webhookEndpoints.delete', { params: { id } }, options);
  }

  /**
   * Gives the endpoint a new secret, returned this once. For a while (`previousSecretExpiresAt`) the previous secret
   * signs every delivery too, so a receiver can switch to the new one without missing a delivery.
   */
  rotateSecret(id: string, options?: WriteOptions): APIPromise<WebhookEndpointWithSecret> {
    return this.transport.request('webhookEndpoints.rotateSecret', { params: { id } }, options);
  }

  /**
   * The endpoint's deliveries, newest first: status, attempts, the last response and the next attempt. Await it for
   * one page, or iterate it for every delivery.
   */
  deliveries(
    id: string,
    params: ListWebhookDeliveriesParams = {},
    options?: RequestOptions,
  ): PagePromise<WebhookDelivery, ListWebhookDeliveriesParams> {
    return this.transport.requestList('webhookEndpoints.deliveries', params, options, { id });
  }

  /**
   * Sends again every change after `after` (a changes cursor) that the endpoint subscribes to, in the background:
   * resolves to how many were queued. Throws `BadRequestError` for a cursor the feed no longer keeps.
   */
  replay(id: string, body: ReplayWebhookInput, options?: WriteOptions): APIPromise<WebhookReplay> {
    return this.transport.request('webhookEndpoints.replay', { params: { id }, body }, options);
  }

  /** Sends a signed `ping` to the endpoint now and resolves to the outcome: the receiver's status and timing. */
  test(id: string, options?: WriteOptions): APIPromise<WebhookTestResult> {
    return this.transport.request('webhookEndpoints.test', { params: { id } }, options);
  }
}
