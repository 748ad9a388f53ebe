import type { Consignment, ConsignmentList, ListConsignmentsQuery } from '@coinventory/contract';
import * as consignments from './store.js';
import { pageOf } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import { notFound } from '../../errors.js';

export async function listConsignments(
  sql: Queryable,
  organizationId: string,
  query: ListConsignmentsQuery,
): Promise<ConsignmentList> {
  const { entries, hasMore } = pageOf(await consignments.listConsignments(sql, organizationId, query), query.limit);
  return { items: entries, page: query.page, limit: query.limit, hasMore };
}

export async function getConsignment(sql: Queryable, organizationId: string, id: string): Promise<Consignment> {
  const consignment = await consignments.findConsignment(sql, organizationId, id);
  if (!consignment) throw notFound();
  return consignment;
}
