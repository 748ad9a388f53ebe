import { describe, expect, it } from 'vitest';
import { contractRoutes, declaredStatuses } from '../src/routes.js';
import { ErrorBodySchema } from '../src/schemas/common.js';
import { ID } from './fixtures.js';
import { bad, ok, routes, schemaOf } from './schema-checks.js';

describe('contract', () => {
  it('has the eleven endpoints of the specification, then the additions, under paths relative to the /v1 base', () => {
    expect(contractRoutes.map(({ route }) => `${route.method} ${route.path}`)).toEqual([
      'GET /me',
      'GET /items',
      'POST /items',
      // Issue 19: a batch of items (placed with the item routes it belongs with).
      'POST /items/batch',
      'GET /items/:id',
      'PATCH /items/:id',
      'DELETE /items/:id',
      'POST /items/:id/adjustments',
      'GET /items/:id/movements',
      'GET /items/:id/valuations',
      // Issue 19: the whole inventory in one streamed answer.
      'GET /exports/items',
      'POST /items/:id/reservations',
      'GET /reservations',
      'GET /reservations/:id',
      'POST /reservations/:id/commit',
      'POST /reservations/:id/release',
      'GET /consignments',
      'GET /consignments/:id',
      'GET /invoices',
      'GET /invoices/:id',
      // Additions beyond the specification (issue 17): ids POST /items takes, and the changes feed.
      'GET /categories',
      'GET /categories/:id',
      'GET /warehouses',
      'GET /warehouses/:id',
      'GET /changes',
      'GET /changes/cursor',
      // Issue 18: webhooks.
      'GET /webhook-endpoints',
      'POST /webhook-endpoints',
      'GET /webhook-endpoints/:id',
      'PATCH /webhook-endpoints/:id',
      'DELETE /webhook-endpoints/:id',
      'POST /webhook-endpoints/:id/rotate-secret',
      'GET /webhook-endpoints/:id/deliveries',
      'POST /webhook-endpoints/:id/replay',
      'POST /webhook-endpoints/:id/test',
    ]);
  });

  it('declares 200 and the error statuses each endpoint can return', () => {
    // Every GET may answer 304 to If-None-Match; every write may answer 409 to a key still in use; PATCH and
    // DELETE 412 to a failed If-Match.
    expect(declaredStatuses(routes.me)).toEqual([200, 304, 400, 401, 403, 429, 500, 503]);
    for (const route of [routes.list, routes.consignments, routes.invoices])
      expect(declaredStatuses(route)).toEqual([200, 304, 400, 401, 403, 429, 500, 503]);
    for (const route of [routes.get, routes.valuations, routes.consignment, routes.invoice]) {
      expect(declaredStatuses(route)).toEqual([200, 304, 400, 401, 403, 404, 429, 500, 503]);
    }
    expect(declaredStatuses(routes.remove)).toEqual([200, 400, 401, 403, 404, 409, 412, 429, 500, 503]);
    expect(declaredStatuses(routes.create)).toEqual([200, 400, 401, 403, 408, 409, 413, 415, 429, 500, 503]);
    expect(declaredStatuses(routes.update)).toEqual([200, 400, 401, 403, 404, 408, 409, 412, 413, 415, 429, 500, 503]);
    for (const { route } of contractRoutes) {
      for (const [status, schema] of Object.entries(route.responses)) {
        if (status === '304') expect(route.method).toBe('GET');
        else if (status !== '200') expect(schema).toBe(ErrorBodySchema);
      }
    }
  });

  it('gates GET on read and every change on write', () => {
    for (const { route } of contractRoutes)
      expect(route.metadata.scope).toBe(route.method === 'GET' ? 'read' : 'write');
  });
});

describe('path ids', () => {
  it.each(contractRoutes.filter(({ route }) => route.pathParams).map(({ key, route }) => [key, route] as const))(
    '%s takes a uuid id',
    (_key, route) => {
      const params = schemaOf(route.pathParams);
      ok(params, { id: ID });
      for (const id of ['abc', '', '3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6', `${ID}0`]) bad(params, { id });
    },
  );
});
