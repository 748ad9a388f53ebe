import { randomUUID } from 'node:crypto';
import { type ContractRoute, contractRoutes, type Item } from '@coinventory/contract';
import { beforeAll } from 'vitest';
import type { Sql } from '../../src/db/types.js';
import { encodeCursor } from '../../src/modules/changes/index.js';
import { type ApiResponse, call, type RequestOptions } from './http.js';
import type { TestOrganization } from './organization.js';
import { serverWithOrganization, type TestServerOptions } from './server.js';

/**
 * Turns every contract route into a concrete request, so tests that must cover every route iterate
 * `contractRoutes` and a new route cannot escape them: a route this file cannot fill in makes them throw.
 */

/** The ids an organization's routes are called with. */
export interface ResourceIds {
  itemId: string;
  consignmentId: string;
  invoiceId: string;
  categoryId: string;
  warehouseId: string;
  webhookEndpointId: string;
  /** A held reservation of the item (the one committed by `reservations.commit`)... */
  reservationId: string;
  /** ... and another, released by `reservations.release`: each route's request succeeds whichever runs first. */
  releasableReservationId: string;
  /** A changes cursor of the organization (at its feed's start), for bodies that take one. */
  changesCursor: string;
}

/** Which id fills `:id`, by the path's first segment. */
const ID_OF_COLLECTION: Record<string, keyof ResourceIds> = {
  items: 'itemId',
  consignments: 'consignmentId',
  invoices: 'invoiceId',
  categories: 'categoryId',
  warehouses: 'warehouseId',
  'webhook-endpoints': 'webhookEndpointId',
  reservations: 'reservationId',
};

/** Routes whose id is not their collection's usual one. */
const ID_OF_ROUTE: Record<string, keyof ResourceIds> = { '/reservations/:id/release': 'releasableReservationId' };

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when the route's path takes an id (`/items/:id`). */
export const takesId = (entry: ContractRoute): boolean => entry.route.path.includes('/:');
export const routesTakingId: readonly ContractRoute[] = contractRoutes.filter(takesId);
export const readRoutes: readonly ContractRoute[] = contractRoutes.filter((r) => r.route.method === 'GET');
export const writeRoutes: readonly ContractRoute[] = contractRoutes.filter((r) => WRITE_METHODS.has(r.route.method));

/** True when the route declares a JSON body (DELETE declares "no body"). */
export const takesBody = (route: ContractRoute['route']): boolean =>
  'body' in route && typeof route.body !== 'symbol' && route.body !== undefined;

/** The path of a route with its parameters filled: from an organization's ids, or one literal value for every id. */
export function pathFor(route: ContractRoute['route'], ids: ResourceIds | string): string {
  const collection = route.path.split('/')[1] ?? '';
  return route.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    if (name !== 'id') throw new Error(`routes.ts cannot fill path parameter :${name} of ${route.path}`);
    if (typeof ids === 'string') return encodeURIComponent(ids);
    const field = ID_OF_ROUTE[route.path] ?? ID_OF_COLLECTION[collection];
    if (!field) throw new Error(`routes.ts does not know which id fills ${route.path}`);
    return ids[field];
  });
}

let sequence = 0;
/** A SKU no test has used yet. */
export const uniqueSku = (prefix = 'SKU') => {
  sequence += 1;
  return `${prefix}-${process.pid}-${sequence}-${randomUUID().slice(0, 8)}`;
};

/** A cursor of no organization's feed that is still a well-formed one, for requests made without an organization's ids. */
const ANY_CURSOR = encodeCursor({ organizationId: '00000000-0000-4000-8000-000000000000', position: 0 });

/** A valid body for every route that takes one (given the organization's ids, when the request has them). */
const VALID_BODIES: Record<string, (ids: ResourceIds | string) => Record<string, unknown>> = {
  'items.create': () => ({ sku: uniqueSku('PROBE'), title: 'Route probe' }),
  'items.update': () => ({ title: 'Route probe (changed)' }),
  // Units added: an adjustment that can always be applied.
  'items.adjust': () => ({ available: 1, reason: 'received' }),
  'reservations.create': () => ({ quantity: 1 }),
  'items.batch': () => ({ mode: 'create', items: [{ sku: uniqueSku('BATCH'), title: 'Route probe' }] }),
  // A public https URL: accepted, and never delivered to in these suites (they run no webhook worker).
  'webhookEndpoints.create': () => ({ url: 'https://hooks.example.com/coinventory', events: ['*'] }),
  'webhookEndpoints.update': () => ({ description: 'Route probe (changed)' }),
  'webhookEndpoints.replay': (ids) => ({ after: typeof ids === 'string' ? ANY_CURSOR : ids.changesCursor }),
};

export function validBodyFor(entry: ContractRoute, ids: ResourceIds | string = ''): Record<string, unknown> {
  const make = VALID_BODIES[entry.key];
  if (!make) throw new Error(`routes.ts has no valid body for ${entry.key}`);
  return make(ids);
}

export interface ConcreteRequest {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

/** A request that would succeed for the route, given the organization's ids and a key with the route's scope. */
export function requestFor(entry: ContractRoute, ids: ResourceIds | string): ConcreteRequest {
  const request: ConcreteRequest = { method: entry.route.method, path: pathFor(entry.route, ids) };
  if (takesBody(entry.route)) request.body = validBodyFor(entry, ids);
  return request;
}

/** Sends the route's concrete request. */
export function send<T = unknown>(
  baseUrl: string,
  request: ConcreteRequest,
  options: Omit<RequestOptions, 'body'> = {},
): Promise<ApiResponse<T>> {
  return call<T>(baseUrl, request.method, request.path, {
    ...options,
    ...(request.body !== undefined && { body: request.body }),
  });
}

export interface SeededResources extends ResourceIds {
  sku: string;
  valuationId: string;
  consignorId: string;
  consignmentName: string;
  customerName: string;
  invoiceNumber: number;
}

let invoiceNumber = 1000;

/**
 * Gives an organization one of everything: an item (created through the API, in a category, consigned), a valuation
 * of it with a comparable sale, a consignment with a consignor, and an invoice with a line and a payment. The
 * API cannot create the latter, so they are inserted with SQL.
 */
export async function seedResources(
  sql: Sql,
  baseUrl: string,
  organization: TestOrganization,
  label: string,
): Promise<SeededResources> {
  const org = organization.organizationId;
  const [category] = await sql<{ id: string }[]>`
    INSERT INTO categories (organization_id, name) VALUES (${org}, ${`${label} category`}) RETURNING id
  `;
  if (!category) throw new Error('no category');
  const sku = uniqueSku(label);
  const created = await call<Item>(baseUrl, 'POST', '/items', {
    key: organization.key,
    body: {
      sku,
      title: `${label} Morgan dollar`,
      description: `${label} description`,
      certificateNumber: `${label}-CERT`,
      gradingService: 'PCGS',
      grade: 'MS65',
      categoryId: category.id,
      quantity: 3,
      valueInCents: 12_345,
      acquisitionPriceInCents: 10_000,
      attributes: { year: 1881, mint: 'S', proof: false },
    },
  });
  if (created.status !== 200) throw new Error(`seeding item failed: ${created.status} ${created.text}`);
  const itemId = created.body.id;

  const [valuation] = await sql<{ id: string }[]>`
    INSERT INTO valuations (organization_id, item_id, estimate_low_in_cents, estimate_in_cents, estimate_high_in_cents,
                            confidence_percent, basis, summary)
    VALUES (${org}, ${itemId}, ${11_000}, ${12_000}, ${13_000}, ${80}, 'comps', ${`${label} valuation`})
    RETURNING id
  `;
  if (!valuation) throw new Error('no valuation');
  await sql`
    INSERT INTO valuation_comps (organization_id, valuation_id, position, source, title, price_in_cents, sold_at)
    VALUES (${org}, ${valuation.id}, 1, 'auction', ${`${label} comp`}, ${11_500}, '2024-03-01')
  `;

  const [consignor] = await sql<{ id: string }[]>`
    INSERT INTO consignors (organization_id, name, email)
    VALUES (${org}, ${`${label} Consignor`}, ${`${label.toLowerCase()}@consignor.test`})
    RETURNING id
  `;
  if (!consignor) throw new Error('no consignor');
  const consignmentName = `${label} consignment`;
  const [consignment] = await sql<{ id: string }[]>`
    INSERT INTO consignments (organization_id, number, name, status, consignor_id, commission_bps, received_at)
    VALUES (${org}, ${`${label}-C1`}, ${consignmentName}, 'listed', ${consignor.id}, ${1000}, now())
    RETURNING id
  `;
  if (!consignment) throw new Error('no consignment');
  await sql`UPDATE items SET consignment_id = ${consignment.id} WHERE organization_id = ${org} AND id = ${itemId}`;

  const [customer] = await sql<{ id: string }[]>`
    INSERT INTO customers (organization_id, name, email)
    VALUES (${org}, ${`${label} Customer`}, ${`${label.toLowerCase()}@customer.test`})
    RETURNING id
  `;
  if (!customer) throw new Error('no customer');
  invoiceNumber += 1;
  const customerName = `${label} Customer`;
  const [invoice] = await sql<{ id: string }[]>`
    INSERT INTO invoices (organization_id, number, status, customer_id, customer_name, customer_email, shipping_in_cents)
    VALUES (${org}, ${invoiceNumber}, 'partially_paid', ${customer.id}, ${customerName},
            ${`${label.toLowerCase()}@customer.test`}, ${500})
    RETURNING id
  `;
  if (!invoice) throw new Error('no invoice');
  await sql`
    INSERT INTO invoice_lines (organization_id, invoice_id, position, item_id, description, quantity, unit_price_in_cents)
    VALUES (${org}, ${invoice.id}, 1, ${itemId}, ${`${label} line`}, 1, ${15_000})
  `;
  await sql`
    INSERT INTO invoice_payments (organization_id, invoice_id, amount_in_cents, method, status, paid_at)
    VALUES (${org}, ${invoice.id}, ${5_000}, 'card', 'succeeded', now())
  `;
  const hold = async (cart: string) => {
    const held = await call<{ id: string }>(baseUrl, 'POST', `/items/${itemId}/reservations`, {
      key: organization.key,
      body: { quantity: 1, reference: `${label}-${cart}` },
    });
    if (held.status !== 200) throw new Error(`seeding reservation failed: ${held.status} ${held.text}`);
    return held.body.id;
  };
  const reservationId = await hold('CART-1');
  const releasableReservationId = await hold('CART-2');
  // A receiver no delivery reaches: its address is refused before connecting, so a test ping answers at once.
  const [endpoint] = await sql<{ id: string }[]>`
    INSERT INTO webhook_endpoints (organization_id, url, description, events, secret)
    VALUES (${org}, ${`https://127.0.0.1:9/${label}`}, ${`${label} endpoint`}, ${['*']}, ${'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'})
    RETURNING id
  `;
  if (!endpoint) throw new Error('no webhook endpoint');
  return {
    itemId,
    webhookEndpointId: endpoint.id,
    reservationId,
    releasableReservationId,
    changesCursor: encodeCursor({ organizationId: org, position: 0 }),
    consignmentId: consignment.id,
    invoiceId: invoice.id,
    sku,
    categoryId: category.id,
    warehouseId: organization.defaultWarehouseId,
    valuationId: valuation.id,
    consignorId: consignor.id,
    consignmentName,
    customerName,
    invoiceNumber,
  };
}

/** Rows an organization holds in every organization-owned table, to prove a request changed nothing. */
export async function rowCounts(sql: Sql, organizationId: string): Promise<Record<string, number>> {
  const [row] = await sql<Record<string, number>[]>`
    SELECT
      (SELECT count(*)::int FROM items WHERE organization_id = ${organizationId}) AS items,
      (SELECT count(*)::int FROM valuations WHERE organization_id = ${organizationId}) AS valuations,
      (SELECT count(*)::int FROM valuation_comps WHERE organization_id = ${organizationId}) AS valuation_comps,
      (SELECT count(*)::int FROM categories WHERE organization_id = ${organizationId}) AS categories,
      (SELECT count(*)::int FROM consignors WHERE organization_id = ${organizationId}) AS consignors,
      (SELECT count(*)::int FROM consignments WHERE organization_id = ${organizationId}) AS consignments,
      (SELECT count(*)::int FROM customers WHERE organization_id = ${organizationId}) AS customers,
      (SELECT count(*)::int FROM invoices WHERE organization_id = ${organizationId}) AS invoices,
      (SELECT count(*)::int FROM invoice_lines WHERE organization_id = ${organizationId}) AS invoice_lines,
      (SELECT count(*)::int FROM invoice_payments WHERE organization_id = ${organizationId}) AS invoice_payments,
      (SELECT count(*)::int FROM marketplace_listings WHERE organization_id = ${organizationId}) AS marketplace_listings,
      (SELECT count(*)::int FROM marketplace_sync_jobs WHERE organization_id = ${organizationId}) AS marketplace_sync_jobs,
      (SELECT count(*)::int FROM changes WHERE organization_id = ${organizationId}) AS changes,
      (SELECT count(*)::int FROM idempotency_keys WHERE organization_id = ${organizationId}) AS idempotency_keys,
      (SELECT count(*)::int FROM webhook_endpoints WHERE organization_id = ${organizationId}) AS webhook_endpoints,
      (SELECT count(*)::int FROM webhook_deliveries WHERE organization_id = ${organizationId}) AS webhook_deliveries,
      (SELECT count(*)::int FROM reservations WHERE organization_id = ${organizationId}) AS reservations,
      (SELECT count(*)::int FROM item_movements WHERE organization_id = ${organizationId}) AS item_movements
  `;
  if (!row) throw new Error('no counts');
  return { ...row };
}

/**
 * A server for the calling suite whose organization holds one of everything (`seedResources`, labelled `label`).
 * Its fields are there from the suite's first hook on.
 */
export function serverWithResources(label: string, options: TestServerOptions = {}) {
  const suite = serverWithOrganization(options);
  let data: SeededResources | undefined;
  beforeAll(async () => {
    data = await seedResources(suite.server.database.sql, suite.server.baseUrl, suite.organization, label);
  });
  return {
    get server() {
      return suite.server;
    },
    get organization() {
      return suite.organization;
    },
    get data() {
      if (!data) throw new Error('the suite’s resources are seeded in its beforeAll');
      return data;
    },
  };
}
