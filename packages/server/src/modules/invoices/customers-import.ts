import type { Queryable } from '../../db/types.js';
import { peopleImport } from '../imports/index.js';

/**
 * Customers, as an operator imports them (`import customers FILE`), by their externalId. An invoice keeps the name and
 * email it was issued to: a changed customer changes no invoice.
 */
export const CUSTOMERS_IMPORT = peopleImport('customers');

/** The organization's imported customers among `externalIds`, by externalId: their ids, names and emails. */
export async function customersByExternalId(
  sql: Queryable,
  organizationId: string,
  externalIds: readonly string[],
): Promise<Map<string, { id: string; name: string | null; email: string | null }>> {
  const rows = await sql<{ id: string; external_id: string; name: string | null; email: string | null }[]>`
    SELECT id, external_id, name, email FROM customers
    WHERE organization_id = ${organizationId} AND external_id = ANY(${externalIds as string[]})
  `;
  return new Map(rows.map((row) => [row.external_id, { id: row.id, name: row.name, email: row.email }]));
}
