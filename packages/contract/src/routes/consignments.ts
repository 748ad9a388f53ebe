import { ConsignmentListSchema, ConsignmentSchema, ListConsignmentsQuerySchema } from '../schemas/consignment.js';
import { c, listAndGet } from './common.js';

/** The consignments routes: read-only. */
export const consignments = c.router(
  listAndGet(
    'Consignments',
    '/consignments',
    {
      summary: 'List consignments',
      description: 'Lists consignments, newest first (`createdAt` descending, then `id` descending).',
      operationId: 'listConsignments',
      query: ListConsignmentsQuerySchema,
      page: ConsignmentListSchema,
    },
    {
      summary: 'Get a consignment',
      description: 'Returns one consignment with its totals and consignor.',
      operationId: 'getConsignment',
      entry: ConsignmentSchema,
    },
  ),
);
