import { z } from 'zod';
import { LIMITS, VALUATION_BASES } from '../constants.js';
import { dateTime, queryInteger, uuid } from '../primitives.js';
import { codeList, nullable, strictObject } from './fields.js';

export const ComparableSaleSchema = strictObject('A comparable sale the valuation used.', {
  source: nullable.string('Where the sale record came from.'),
  title: nullable.string('Title of the lot sold.'),
  grade: nullable.string('Grade of the coin sold.'),
  gradingService: nullable.string('Grading service of the coin sold.'),
  priceInCents: nullable.cents('Price realised, in cents.'),
  soldAt: nullable.string('When it sold, as the source reported it (not necessarily a date-time).'),
  venue: nullable.string('Auction house or marketplace of the sale.'),
  url: nullable.string('Address of the sale record.'),
});

export const ValuationSchema = strictObject('An automated valuation of an item.', {
  id: uuid.describe('Valuation id.'),
  itemId: uuid.describe('The item valued.'),
  estimateLowInCents: nullable.cents('Low end of the estimate, in cents.'),
  estimateInCents: nullable.cents('Point estimate, in cents.'),
  estimateHighInCents: nullable.cents('High end of the estimate, in cents.'),
  confidencePercent: nullable.integer('Confidence in the estimate, in percent.'),
  basis: nullable.string(`What the estimate rests on. Known values: ${codeList(VALUATION_BASES)}.`),
  priceGuideValueInCents: nullable.cents('Price-guide value, in cents.'),
  meltValueInCents: nullable.cents('Metal (melt) value, in cents.'),
  summary: nullable.string('Explanation of the estimate.'),
  comps: z.array(ComparableSaleSchema).describe('Comparable sales used.'),
  appliedAt: nullable.dateTime("When the estimate was applied as the item's value."),
  createdAt: dateTime.describe('When the valuation was made.'),
});

export const ListValuationsQuerySchema = z
  .object({
    limit: queryInteger(LIMITS.valuationLimit).describe(
      `How many valuations to return, ${LIMITS.valuationLimit.min} to ${LIMITS.valuationLimit.max}.`,
    ),
  })
  .strict();

export const ValuationListSchema = strictObject("An item's valuations, newest first.", {
  items: z.array(ValuationSchema).describe('Valuations of the item, newest first.'),
});
