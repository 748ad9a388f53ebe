import type { Transport } from '../core/transport.js';

/**
 * The base of the client's resources (`client.items`, `client.consignments`, `client.invoices`): each method sends
 * one route of the contract through the transport it was built with, and its response type follows from the route.
 */
export abstract class Resource {
  protected readonly transport: Transport;

  /** `transport` is what the calls go through: the client's own, or a `Coinventory` client (it has both methods). */
  constructor(transport: Transport) {
    this.transport = transport;
  }
}

/** The query of a write that may be a dry run: none unless `dryRun` was given. */
export const dryRunQuery = (dryRun: boolean | undefined): { query?: { dryRun: string } } =>
  dryRun === undefined ? {} : { query: { dryRun: String(dryRun) } };
