import { z } from 'zod';
import { LIMITS, VALUATION_BASES } from '../constants.js';
import { cents, dateTime, queryInteger, uuid } from '../primitives.js';

export const ComparableSaleSchema = z
  .object({
    source: z.string().nullable().describe('Where the sale record came from.'),
    title: z.string().nullable().describe('Title of the lot sold.'),
    grade: z.string().nullable().describe('Grade of the coin sold.'),
    gradingService: z.string().nullable().describe('Grading service of the coin sold.'),
    priceInCents: cents.nullable().describe('Price realised, in cents.'),
    soldAt: z.string().nullable().describe('When it sold, as the source reported it (not necessarily a date-time).'),
    venue: z.string().nullable().describe('Auction house or marketplace of the sale.'),
    url: z.string().nullable().describe('Address of the sale record.'),
  })
  .strict()
  .describe('A comparable sale the valuation used.');

export const ValuationSchema = z
  .object({
    id: uuid.describe('Valuation id.'),
    itemId: uuid.describe('The item valued.'),
    estimateLowInCents: cents.nullable().describe('Low end of the estimate, in cents.'),
    estimateInCents: cents.nullable().describe('Point estimate, in cents.'),
    estimateHighInCents: cents.nullable().describe('High end of the estimate, in cents.'),
    confidencePercent: z.number().int().nullable().describe('Confidence in the estimate, in percent.'),
    basis: z
      .string()
      .nullable()
      .describe(`What the estimate rests on. Known values: ${VALUATION_BASES.map((b) => `\`${b}\``).join(', ')}.`),
    priceGuideValueInCents: cents.nullable().describe('Price-guide value, in cents.'),
    meltValueInCents: cents.nullable().describe('Metal (melt) value, in cents.'),
    summary: z.string().nullable().describe('Explanation of the estimate.'),
    comps: z.array(ComparableSaleSchema).describe('Comparable sales used.'),
    appliedAt: dateTime.nullable().describe("When the estimate was applied as the item's value."),
    createdAt: dateTime.describe('When the valuation was made.'),
  })
  .strict()
  .describe('An automated valuation of an item.');

export const ListValuationsQuerySchema = z
  .object({
    limit: queryInteger(LIMITS.valuationLimit).describe(
      `How many valuations to return, ${LIMITS.valuationLimit.min} to ${LIMITS.valuationLimit.max}.`,
    ),
  })
  .strict();

export const ValuationListSchema = z
  .object({
    items: z.array(ValuationSchema).describe('Valuations of the item, newest first.'),
  })
  .strict()
  .describe("An item's valuations, newest first.");
