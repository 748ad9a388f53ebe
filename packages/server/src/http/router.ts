import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import type { RatePolicy } from '../modules/access/store.js';
import * as consignments from '../modules/consignments/service.js';
import * as invoices from '../modules/invoices/service.js';
import * as items from '../modules/items/service.js';
import { authOf, sqlOf } from '../request/context.js';

const s = initServer();

/**
 * Thin handlers: validated input → service → response. Each runs on its request's own `sqlOf(res)`, whose
 * statements the request's deadline can cancel and roll back.
 */
export function createRouter(policy: RatePolicy, notifySync: items.SyncNotifier) {
  return s.router(contract, {
    me: async ({ res }) => {
      const { organization, apiKey } = authOf(res);
      return {
        status: 200,
        body: {
          organization,
          apiKey: {
            id: apiKey.id,
            name: apiKey.name,
            expiresAt: apiKey.expiresAt?.toISOString() ?? null,
            scopes: apiKey.scopes,
          },
          rateLimit: { maxRequests: policy.maxRequests, windowSeconds: policy.windowSeconds },
        },
      };
    },
    items: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await items.listItems(sqlOf(res), authOf(res).organization.id, query),
      }),
      create: async ({ body, res }) => ({
        status: 200,
        body: await items.createItem(sqlOf(res), authOf(res).organization.id, body),
      }),
      get: async ({ params, res }) => ({
        status: 200,
        body: await items.getItem(sqlOf(res), authOf(res).organization.id, params.id),
      }),
      update: async ({ params, body, res }) => ({
        status: 200,
        body: await items.updateItem(sqlOf(res), authOf(res).organization.id, params.id, body, notifySync),
      }),
      delete: async ({ params, res }) => ({
        status: 200,
        body: await items.deleteItem(sqlOf(res), authOf(res).organization.id, params.id, notifySync),
      }),
      valuations: async ({ params, query, res }) => ({
        status: 200,
        body: await items.listItemValuations(sqlOf(res), authOf(res).organization.id, params.id, query.limit),
      }),
    },
    consignments: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await consignments.listConsignments(sqlOf(res), authOf(res).organization.id, query),
      }),
      get: async ({ params, res }) => ({
        status: 200,
        body: await consignments.getConsignment(sqlOf(res), authOf(res).organization.id, params.id),
      }),
    },
    invoices: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await invoices.listInvoices(sqlOf(res), authOf(res).organization.id, query),
      }),
      get: async ({ params, res }) => ({
        status: 200,
        body: await invoices.getInvoice(sqlOf(res), authOf(res).organization.id, params.id),
      }),
    },
  });
}
