import { LIMITS } from '@coinventory/contract';
import { z } from 'zod';
import type { TransactionSql } from '../../db/types.js';
import { field, type ImportKind, type Upserted, upsertInChunks } from '../imports/index.js';
import { identityOf } from './engine.js';
import { revalueCoins } from './operator.js';
import { gradeKeyOf } from './store.js';

/**
 * The valuation engine's sources as operators import them: comparable sales and price-guide values. Text is bounded
 * as the API bounds it (a grade and a grading service as an item's), money as cents (an integer from 0 to 2^53 − 1),
 * a date as ISO 8601.
 */

const url = field.httpUrl.optional().transform((value) => value ?? null);

const SaleRow = z
  .object({
    source: field.requiredText(100),
    externalId: field.requiredText(200),
    coin: field.requiredText(LIMITS.title.max),
    title: field.optionalText(LIMITS.title.max),
    gradingService: field.optionalText(LIMITS.gradingService.max),
    grade: field.optionalText(LIMITS.grade.max),
    priceInCents: field.cents,
    soldAt: field.dateText,
    venue: field.optionalText(200),
    url,
  })
  .strict();
type SaleRow = z.infer<typeof SaleRow>;

function upsertSales(tx: TransactionSql, organizationId: string, rows: SaleRow[]) {
  return upsertInChunks(rows, (chunk) => {
    const values = chunk.map((row) => ({
      organization_id: organizationId,
      source: row.source,
      external_id: row.externalId,
      coin: row.coin,
      coin_identity: identityOf(row.coin),
      title: row.title,
      grading_service: row.gradingService,
      grade: row.grade,
      price_in_cents: row.priceInCents,
      sold_at: row.soldAt.at,
      sold_at_text: row.soldAt.text,
      venue: row.venue,
      url: row.url,
    }));
    // Only a row whose values changed is updated (and counted so); the same file imported again changes nothing.
    return tx<Upserted>`
      INSERT INTO comparable_sales ${tx(values)}
      ON CONFLICT (organization_id, source, external_id) DO UPDATE SET
        coin = EXCLUDED.coin, coin_identity = EXCLUDED.coin_identity, title = EXCLUDED.title,
        grading_service = EXCLUDED.grading_service, grade = EXCLUDED.grade, price_in_cents = EXCLUDED.price_in_cents,
        sold_at = EXCLUDED.sold_at, sold_at_text = EXCLUDED.sold_at_text, venue = EXCLUDED.venue, url = EXCLUDED.url,
        updated_at = now()
      WHERE (comparable_sales.coin, comparable_sales.title, comparable_sales.grading_service, comparable_sales.grade,
             comparable_sales.price_in_cents, comparable_sales.sold_at, comparable_sales.sold_at_text,
             comparable_sales.venue, comparable_sales.url)
        IS DISTINCT FROM (EXCLUDED.coin, EXCLUDED.title, EXCLUDED.grading_service, EXCLUDED.grade,
             EXCLUDED.price_in_cents, EXCLUDED.sold_at, EXCLUDED.sold_at_text, EXCLUDED.venue, EXCLUDED.url)
      RETURNING (xmax = 0) AS created, coin_identity AS touched
    `;
  });
}

export const SALES_IMPORT: ImportKind<SaleRow> = {
  name: 'sales',
  fields: Object.keys(SaleRow.shape),
  required: ['source', 'externalId', 'coin', 'priceInCents', 'soldAt'],
  row: SaleRow,
  key: (row) => JSON.stringify([row.source, row.externalId]),
  keyFields: 'source and externalId',
  write: upsertSales,
  revalue: revalueCoins,
};

const GuideRow = z
  .object({
    coin: field.requiredText(LIMITS.title.max),
    grade: field.requiredText(LIMITS.grade.max),
    valueInCents: field.cents,
  })
  .strict();
type GuideRow = z.infer<typeof GuideRow>;

function upsertGuide(tx: TransactionSql, organizationId: string, rows: GuideRow[]) {
  return upsertInChunks(rows, (chunk) => {
    const values = chunk.map((row) => ({
      organization_id: organizationId,
      coin_identity: identityOf(row.coin),
      grade_key: gradeKeyOf(row.grade),
      coin: row.coin,
      grade: row.grade,
      value_in_cents: row.valueInCents,
    }));
    return tx<Upserted>`
      INSERT INTO price_guide_entries ${tx(values)}
      ON CONFLICT (organization_id, coin_identity, grade_key) DO UPDATE SET
        coin = EXCLUDED.coin, grade = EXCLUDED.grade, value_in_cents = EXCLUDED.value_in_cents, updated_at = now()
      WHERE (price_guide_entries.coin, price_guide_entries.grade, price_guide_entries.value_in_cents)
        IS DISTINCT FROM (EXCLUDED.coin, EXCLUDED.grade, EXCLUDED.value_in_cents)
      RETURNING (xmax = 0) AS created, coin_identity AS touched
    `;
  });
}

export const PRICE_GUIDE_IMPORT: ImportKind<GuideRow> = {
  name: 'price-guide',
  fields: Object.keys(GuideRow.shape),
  required: ['coin', 'grade', 'valueInCents'],
  row: GuideRow,
  // The guide holds one value per coin and grade as the engine compares them: `MS 65` repeats `MS65`.
  key: (row) => JSON.stringify([identityOf(row.coin), gradeKeyOf(row.grade)]),
  keyFields: 'coin and grade',
  write: upsertGuide,
  revalue: revalueCoins,
};
