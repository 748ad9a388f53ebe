import { z } from 'zod';
import * as valuations from '../../modules/valuations/index.js';
import { date, table } from '../format.js';
import { NO_OPTIONS, org, string } from '../options.js';
import { spec } from '../spec.js';

const flag = { type: 'boolean' } as const;
/** Up to ten SKUs, then how many more: `--all` on a large organization should not print thousands on one line. */
const named = (skus: string[]) =>
  skus.length <= 10 ? skus.join(', ') : `${skus.slice(0, 10).join(', ')} and ${skus.length - 10} more (see --json)`;

/** Each item nothing could value, with why (the sales found against those needed…): the first ten, then how many more. */
const notValued = (skipped: ReadonlyArray<{ sku: string; reason: string }>) => [
  ...skipped.slice(0, 10).map((s) => `  ${s.sku}: ${s.reason}`),
  ...(skipped.length > 10 ? [`  and ${skipped.length - 10} more (see --json)`] : []),
];

/** The valuation engine, run by the operator, and the spot prices its melt values use. */
export const VALUATIONS_COMMANDS = [
  spec({
    name: 'valuate',
    summary:
      'Value one item or every item from comparable sales, the price guide or metal content; --apply makes each estimate the item value.',
    synopsis: '--org <id|slug> (--item <id|sku> | --all) [--apply]',
    example: 'coinventory-server valuate --org liberty-coin --item MOR-1881-S-65',
    options: { org: string, item: string, all: flag, apply: flag },
    input: z
      .object({
        org,
        item: z.string().min(1, 'must not be empty').optional(),
        all: z.boolean().optional(),
        apply: z.boolean().optional(),
      })
      .superRefine((value, ctx) => {
        // A rule about two options: its message is a whole line's (parse.ts), after the command's name.
        if ((value.item === undefined) === !value.all) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: value.all
              ? 'takes --item or --all, not both; give one of them'
              : 'needs --item <id|sku> or --all; give one of them',
          });
        }
      })
      .transform((value) => ({ org: value.org, item: value.item ?? null, apply: value.apply === true })),
    run: (sql, input) => valuations.valuate(sql, input),
    text: (result) => {
      const lines =
        result.valued.length === 0
          ? []
          : [
              table([
                ['ITEM', 'BASIS', 'ESTIMATE', 'CONFIDENCE', 'APPLIED'],
                ...result.valued.map((v) => [
                  v.sku,
                  v.basis,
                  valuations.dollars(v.estimateInCents),
                  `${v.confidencePercent}%`,
                  v.applied ? 'yes' : 'no',
                ]),
              ]),
              '',
            ];
      const others = [
        ...(result.unchanged.length === 0
          ? []
          : [
              `${result.unchanged.length} unchanged since their latest valuation (${named(result.unchanged.map((u) => u.sku))})`,
            ]),
        ...(result.skipped.length === 0 ? [] : [`${result.skipped.length} not valued, each with why below`]),
      ];
      lines.push(
        `${result.valued.length} ${result.valued.length === 1 ? 'item' : 'items'} valued in ${result.organization.slug}` +
          (others.length === 0 ? '.' : `; ${others.join('; ')}.`),
        ...notValued(result.skipped),
      );
      return lines.join('\n');
    },
  }),
  spec({
    name: 'valuation policy',
    summary:
      "Show or set an organization's valuation policy: whether estimates become item values, and how often every item is valued again.",
    synopsis: '--org <id|slug> [--apply on|off] [--every-hours <1-8760>|off]',
    example: 'coinventory-server valuation policy --org liberty-coin --every-hours 24',
    options: { org: string, apply: string, 'every-hours': string },
    input: z
      .object({
        org,
        apply: z
          .enum(['on', 'off'], { errorMap: () => ({ message: 'must be on or off' }) })
          .optional()
          .transform((value) => (value === undefined ? undefined : value === 'on')),
        'every-hours': z
          .string()
          .regex(/^(off|[0-9]+)$/, 'must be a number of hours from 1 to 8760, or off')
          .transform((value) => (value === 'off' ? null : Number(value)))
          .refine((value) => value === null || (value >= 1 && value <= 8760), 'must be from 1 to 8760 hours, or off')
          .optional(),
      })
      .transform((value) => ({ org: value.org, apply: value.apply, everyHours: value['every-hours'] })),
    run: (sql, input) =>
      input.apply === undefined && input.everyHours === undefined
        ? valuations.showPolicy(sql, input)
        : valuations.setPolicy(sql, input),
    text: (policy) =>
      [
        `Valuation policy of ${policy.organization.slug}:`,
        `  estimates become item values: ${policy.apply ? 'yes (every valuation is applied)' : 'no (only valuate --apply)'}`,
        `  every item valued again: ${policy.everyHours === null ? 'never (only on demand and after imports)' : `every ${policy.everyHours} ${policy.everyHours === 1 ? 'hour' : 'hours'}`}`,
        `  last scheduled run: ${policy.lastRunAt === null ? 'never' : date(policy.lastRunAt)}`,
      ].join('\n'),
  }),
  spec({
    name: 'spot set',
    summary: 'Set the spot price of a metal, which every melt value uses from then on.',
    synopsis: '--metal <gold|silver|platinum|palladium|…> --usd-per-oz <price per troy ounce>',
    example: 'coinventory-server spot set --metal silver --usd-per-oz 31.25',
    options: { metal: string, 'usd-per-oz': string },
    input: z
      .object({
        metal: z
          .string({ required_error: 'is required' })
          .trim()
          .toLowerCase()
          .regex(/^[a-z]+$/, 'must be a metal name in letters, e.g. silver'),
        'usd-per-oz': z
          .string({ required_error: 'is required' })
          .regex(/^[0-9]+(\.[0-9]{1,2})?$/, 'must be a price in dollars with at most two decimals, e.g. 31.25')
          .transform((value) => Math.round(Number(value) * 100))
          .pipe(z.number().int().min(1, 'must be above 0').max(100_000_000_00, 'must be at most 10000000000')),
      })
      .transform((value) => ({ metal: value.metal, centsPerOz: value['usd-per-oz'] })),
    run: (sql, input) => valuations.setSpotPrice(sql, input),
    text: (spot) => `Spot ${spot.metal}: ${valuations.dollars(spot.centsPerOz)} per troy ounce.`,
  }),
  spec({
    name: 'spot list',
    summary: 'List the spot prices melt values use.',
    synopsis: '',
    example: 'coinventory-server spot list',
    ...NO_OPTIONS,
    run: (sql) => valuations.listSpotPrices(sql),
    text: (spots) =>
      spots.length === 0
        ? 'No spot prices: set one with `coinventory-server spot set`.'
        : table([
            ['METAL', 'USD PER OZ', 'SET AT'],
            ...spots.map((s) => [s.metal, valuations.dollars(s.centsPerOz), date(s.updatedAt)]),
          ]),
  }),
];
