import type { CreateReservationInput, ListReservationsParams, Reservation } from '@coinventory/contract';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  ConditionalGetOptions,
  DryRunOptions,
  RequestOptions,
  SendOptions,
  UnconditionalOptions,
  WriteOptions,
} from '../core/transport.js';
import { dryRunQuery, Resource } from './resource.js';

/**
 * Reservations: `client.reservations`. Units of an item held for a customer while they pay, so one coin sold in
 * several places is never sold twice: `create` moves units from the item's `available` to `reserved`, `commit` sells
 * them (`reserved` to `sold`), `release` gives them back; a held reservation the server reaches at `expiresAt` is
 * given back too (`expired`).
 */
export class Reservations extends Resource {
  /**
   * Lists reservations, newest first, narrowed by `itemId`, `status` or `reference`. Await it for one page, or
   * iterate it for every reservation.
   */
  list(
    params: ListReservationsParams = {},
    options?: RequestOptions,
  ): PagePromise<Reservation, ListReservationsParams> {
    return this.transport.requestList('reservations.list', params, options);
  }

  /**
   * Gets one reservation and its status. Throws `NotFoundError` for an unknown id. With `ifNoneMatch`, resolves to
   * `NOT_MODIFIED` when it has not changed.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<Reservation | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<Reservation>;
  get(id: string, options?: SendOptions): APIPromise<Reservation | NotModified> {
    return this.transport.request('reservations.get', { params: { id } }, options);
  }

  /**
   * Holds `quantity` units of the item `itemId` for `expiresInSeconds` (default 900) and returns the reservation,
   * `held`. Throws `InsufficientQuantityError` (and holds nothing) when fewer units are available. With
   * `{ dryRun: true }`, returns the reservation it would make and holds nothing.
   */
  create(
    itemId: string,
    body: CreateReservationInput,
    options: WriteOptions & DryRunOptions = {},
  ): APIPromise<Reservation> {
    const { dryRun, ...rest } = options;
    return this.transport.request(
      'reservations.create',
      { params: { id: itemId }, body, ...dryRunQuery(dryRun) },
      rest,
    );
  }

  /**
   * Sells the held units (the item's `reserved` to `sold`) and returns the reservation, `committed`. Throws
   * `ReservationNotHeldError` (and moves nothing) when it is no longer held. With `{ dryRun: true }`, moves nothing.
   */
  commit(id: string, options: WriteOptions & DryRunOptions = {}): APIPromise<Reservation> {
    const { dryRun, ...rest } = options;
    return this.transport.request('reservations.commit', { params: { id }, ...dryRunQuery(dryRun) }, rest);
  }

  /**
   * Gives the held units back (the item's `reserved` to `available`) and returns the reservation, `released`. Throws
   * `ReservationNotHeldError` (and moves nothing) when it is no longer held. With `{ dryRun: true }`, moves nothing.
   */
  release(id: string, options: WriteOptions & DryRunOptions = {}): APIPromise<Reservation> {
    const { dryRun, ...rest } = options;
    return this.transport.request('reservations.release', { params: { id }, ...dryRunQuery(dryRun) }, rest);
  }
}
