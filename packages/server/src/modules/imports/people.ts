import type { TransactionSql } from '../../db/types.js';
import { PERSON_FIELDS, PersonRow } from './fields.js';
import type { ImportKind, Written } from './importer.js';
import { upsertByExternalId } from './upsert.js';

/**
 * Consignors or customers (`table`, the kind's name too), as an operator imports them: by their externalId, with a
 * name or an email (or both), which a re-import updates; `afterWrite` records what the change of a person changes.
 */
export function peopleImport(
  table: string,
  afterWrite?: (tx: TransactionSql, organizationId: string, written: Written) => Promise<void>,
): ImportKind<PersonRow> {
  return {
    name: table,
    fields: PERSON_FIELDS,
    required: ['externalId'],
    row: PersonRow,
    key: (row) => row.externalId,
    keyFields: 'externalId',
    write: async (tx, organizationId, rows) => {
      const written = await upsertByExternalId(tx, table, organizationId, rows, ['name', 'email']);
      await afterWrite?.(tx, organizationId, written);
      return written;
    },
  };
}
