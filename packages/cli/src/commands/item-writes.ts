import { LIMITS } from '@coinventory/contract/constants';
import type { CreateItemInput, UpdateItemInput } from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../errors.js';
import {
  type AttributeValue,
  attribute,
  attributeMap,
  attributesJson,
  cents,
  dateTime,
  dollars,
  integer,
  oneOf,
  repeatable,
  text,
  uuid,
} from '../options.js';
import { groupDigits } from '../output/format.js';
import { addOutputOptions, commandPath, defined, type OutputOptions } from './shared.js';

// The options of `items create` and `items update`, and the request body they make.

/** The fields of UpdateItemInput that accept null (which clears them). */
type ClearableKey = {
  [K in keyof UpdateItemInput]-?: null extends UpdateItemInput[K] ? K : never;
}[keyof UpdateItemInput];

/** `--clear <field>` names and the body field each clears. */
const CLEARABLE = {
  description: 'description',
  'acquisition-price': 'acquisitionPriceInCents',
  'acquisition-date': 'acquisitionDate',
  'acquired-from': 'acquiredFrom',
  'acquisition-notes': 'acquisitionNotes',
  'grading-service': 'gradingService',
  grade: 'grade',
  'certificate-number': 'certificateNumber',
  'grading-notes': 'gradingNotes',
  'category-id': 'categoryId',
  'location-details': 'locationDetails',
} as const satisfies Record<string, ClearableKey>;
type ClearName = keyof typeof CLEARABLE;
const CLEAR_NAMES = Object.keys(CLEARABLE) as ClearName[];
// Compile-time proof that every clearable field of the contract can be cleared.
const clearComplete: [Exclude<ClearableKey, (typeof CLEARABLE)[ClearName]>] extends [never] ? true : false = true;
void clearComplete;

export interface WriteOptions extends OutputOptions {
  sku?: string;
  title?: string;
  description?: string;
  quantity?: number;
  value?: number;
  valueCents?: number;
  acquisitionPrice?: number;
  acquisitionPriceCents?: number;
  acquisitionDate?: string;
  acquiredFrom?: string;
  acquisitionNotes?: string;
  gradingService?: string;
  grade?: string;
  certificateNumber?: string;
  gradingNotes?: string;
  categoryId?: string;
  attr?: Array<readonly [string, AttributeValue]>;
  attributesJson?: Record<string, AttributeValue>;
  warehouseId?: string;
  zoneId?: string;
  locationDetails?: string;
  clear?: ClearName[];
}

/** The options each `--clear` name conflicts with. */
const CLEAR_CONFLICTS: Record<ClearName, ReadonlyArray<keyof WriteOptions>> = {
  description: ['description'],
  'acquisition-price': ['acquisitionPrice', 'acquisitionPriceCents'],
  'acquisition-date': ['acquisitionDate'],
  'acquired-from': ['acquiredFrom'],
  'acquisition-notes': ['acquisitionNotes'],
  'grading-service': ['gradingService'],
  grade: ['grade'],
  'certificate-number': ['certificateNumber'],
  'grading-notes': ['gradingNotes'],
  'category-id': ['categoryId'],
  'location-details': ['locationDetails'],
};

const max = (n: number) => `at most ${groupDigits(n)} chars`;

export function addWriteOptions(command: Command, mode: 'create' | 'update'): Command {
  const { quantity, attributes } = LIMITS;
  const sku = new Option(
    '--sku <sku>',
    `stock-keeping unit, unique in the workspace (${LIMITS.sku.min}-${LIMITS.sku.max} chars)`,
  ).argParser(text(LIMITS.sku));
  const title = new Option('--title <title>', `title (${LIMITS.title.min}-${LIMITS.title.max} chars)`).argParser(
    text(LIMITS.title),
  );
  if (mode === 'create') {
    sku.makeOptionMandatory();
    title.makeOptionMandatory();
  }
  command
    .addOption(sku)
    .addOption(title)
    .addOption(
      new Option('--description <text>', `description (${max(LIMITS.description.max)})`).argParser(
        text(LIMITS.description),
      ),
    )
    .addOption(
      new Option(
        '--quantity <n>',
        `units available, ${quantity.min} to ${groupDigits(quantity.max)}${mode === 'create' ? ` (default: ${quantity.default})` : ''}`,
      ).argParser(integer(quantity)),
    )
    .addOption(
      new Option(
        '--value <dollars>',
        `owner's value in dollars: 125, 125.5 or 125.50${mode === 'create' ? ' (default: 0)' : ''}`,
      )
        .argParser(dollars)
        .conflicts('valueCents'),
    )
    .addOption(new Option('--value-cents <cents>', "owner's value in whole cents: 12550 is $125.50").argParser(cents))
    .addOption(
      new Option('--acquisition-price <dollars>', 'cost basis in dollars: 99 or 99.95')
        .argParser(dollars)
        .conflicts('acquisitionPriceCents'),
    )
    .addOption(new Option('--acquisition-price-cents <cents>', 'cost basis in whole cents').argParser(cents))
    .addOption(
      new Option(
        '--acquisition-date <date>',
        'when acquired: 2026-03-01 (midnight UTC) or an ISO date-time with Z or an offset',
      ).argParser(dateTime),
    )
    .addOption(
      new Option('--acquired-from <text>', `acquired from (${max(LIMITS.acquiredFrom.max)})`).argParser(
        text(LIMITS.acquiredFrom),
      ),
    )
    .addOption(
      new Option('--acquisition-notes <text>', `acquisition notes (${max(LIMITS.acquisitionNotes.max)})`).argParser(
        text(LIMITS.acquisitionNotes),
      ),
    )
    .addOption(
      new Option(
        '--grading-service <service>',
        `grading service, e.g. PCGS, NGC (${max(LIMITS.gradingService.max)})`,
      ).argParser(text(LIMITS.gradingService)),
    )
    .addOption(
      new Option('--grade <grade>', `grade, e.g. MS65 (${max(LIMITS.grade.max)})`).argParser(text(LIMITS.grade)),
    )
    .addOption(
      new Option(
        '--certificate-number <cert>',
        `grading certificate number (${max(LIMITS.certificateNumber.max)})`,
      ).argParser(text(LIMITS.certificateNumber)),
    )
    .addOption(
      new Option('--grading-notes <text>', `grading notes (${max(LIMITS.gradingNotes.max)})`).argParser(
        text(LIMITS.gradingNotes),
      ),
    )
    .addOption(new Option('--category-id <uuid>', 'a category of the workspace').argParser(uuid))
    .addOption(
      new Option(
        '--attr <key=value>',
        `an attribute (repeatable): year=1921 (number), proof=true, mint=Philadelphia (string), pedigree=null; key:=json for exact JSON, e.g. year:='"1921"'. At most ${attributes.maxKeys} keys.${mode === 'update' ? ' Replaces all attributes.' : ''}`,
      )
        .argParser(repeatable(attribute))
        .conflicts('attributesJson'),
    )
    .addOption(
      new Option(
        '--attributes-json <json>',
        `all attributes as a JSON object, e.g. '{"year":1921,"mint":"Philadelphia"}'${mode === 'update' ? ' (replaces all attributes)' : ''}`,
      ).argParser(attributesJson),
    )
    .addOption(
      new Option(
        '--warehouse-id <uuid>',
        `a warehouse of the workspace${mode === 'create' ? " (default: the workspace's default warehouse)" : ''}`,
      ).argParser(uuid),
    )
    .addOption(
      new Option(
        '--zone-id <uuid>',
        `a zone of the warehouse${mode === 'create' ? " (default: the warehouse's first zone)" : ''}`,
      ).argParser(uuid),
    )
    .addOption(
      new Option(
        '--location-details <text>',
        `position within the zone, e.g. a tray (${max(LIMITS.locationDetails.max)})`,
      ).argParser(text(LIMITS.locationDetails)),
    );
  if (mode === 'update') {
    command.addOption(
      new Option('--clear <field>', `clear a field (repeatable): ${CLEAR_NAMES.join(', ')}`).argParser(
        repeatable(oneOf(CLEAR_NAMES)),
      ),
    );
  }
  return addOutputOptions(command);
}

function attributesFrom(options: WriteOptions, command: Command): Record<string, AttributeValue> | undefined {
  if (options.attributesJson) return options.attributesJson;
  if (!options.attr) return undefined;
  try {
    return attributeMap(options.attr);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(`--attr: ${error.message}`, commandPath(command));
    throw error;
  }
}

function bodyFrom(options: WriteOptions, command: Command): UpdateItemInput {
  const body: UpdateItemInput = defined({
    sku: options.sku,
    title: options.title,
    description: options.description,
    quantity: options.quantity,
    valueInCents: options.value ?? options.valueCents,
    acquisitionPriceInCents: options.acquisitionPrice ?? options.acquisitionPriceCents,
    acquisitionDate: options.acquisitionDate,
    acquiredFrom: options.acquiredFrom,
    acquisitionNotes: options.acquisitionNotes,
    gradingService: options.gradingService,
    grade: options.grade,
    certificateNumber: options.certificateNumber,
    gradingNotes: options.gradingNotes,
    categoryId: options.categoryId,
    attributes: attributesFrom(options, command),
    warehouseId: options.warehouseId,
    zoneId: options.zoneId,
    locationDetails: options.locationDetails,
  });
  for (const name of new Set(options.clear ?? [])) {
    const clashing = CLEAR_CONFLICTS[name].find((option) => options[option] !== undefined);
    if (clashing) {
      const flag = `--${clashing.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      throw new UsageError(`--clear ${name} cannot be used with ${flag}.`, commandPath(command));
    }
    body[CLEARABLE[name]] = null;
  }
  return body;
}

/** The body of `items create`: --sku and --title are required (commander says so first; this proves it to the type). */
export function createBody(options: WriteOptions, command: Command): CreateItemInput {
  const body = bodyFrom(options, command);
  const { sku, title } = body;
  if (sku === undefined || title === undefined) throw new UsageError('--sku and --title are required.', 'items create');
  return { ...body, sku, title };
}

/** The body of `items update`: at least one field to change or clear. */
export function updateBody(options: WriteOptions, command: Command): UpdateItemInput {
  const body = bodyFrom(options, command);
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to update: give at least one field option or --clear.', 'items update');
  }
  return body;
}
