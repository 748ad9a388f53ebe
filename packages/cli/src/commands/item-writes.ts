import { LIMITS } from '@coinventory/contract/constants';
import type { TextBounds } from '@coinventory/contract/text-rules';
import type { Coinventory, CreateItemInput, Item, UpdateItemInput } from '@coinventory/sdk';
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
import { printOne } from '../output/render.js';
import { type ItemRef, itemId } from './item-ref.js';
import { itemView } from './item-views.js';
import { addOutputOptions, commandPath, type OutputOptions, writeAction } from './shared.js';

// `items create` and `items update`: one table of the options they share, each with the body field it sets; the
// request body made from them; and the command itself.

type Mode = 'create' | 'update';
type Field = keyof UpdateItemInput;

/** One option of create and update, and the body field it sets. */
interface WriteOption {
  field: Field;
  flags: string;
  help: string;
  /** Said after the help in one command only: a default of create, a caution of update. */
  notes?: Partial<Record<Mode, string>>;
  /** Commander's parser (a repeatable option's is also given what it returned before). */
  parse(value: string, previous: unknown): unknown;
  /** Turns the parsed value into the field's (`--attr`'s entries into one map); its errors are usage errors. */
  toField?(value: unknown): unknown;
  /** `items create` requires it. */
  required?: boolean;
  /** The option (by attribute name) it cannot be used with: its twin in other units or form. */
  conflicts?: string;
}

/** Text bounds as help: `1-100 chars`, or `at most 2,000 chars` when it may be empty. */
const chars = (bounds: TextBounds): string =>
  bounds.min ? `${bounds.min}-${groupDigits(bounds.max)} chars` : `at most ${groupDigits(bounds.max)} chars`;

/** The text fields whose bounds the contract's LIMITS state. */
type TextField = {
  [K in Field & keyof typeof LIMITS]: NonNullable<UpdateItemInput[K]> extends string
    ? (typeof LIMITS)[K] extends TextBounds
      ? K
      : never
    : never;
}[Field & keyof typeof LIMITS];

/** A text option, checked against the field's bounds in the contract. */
const textOption = (field: TextField, flags: string, label: string, more: Partial<WriteOption> = {}): WriteOption => {
  const bounds: TextBounds = LIMITS[field];
  return { field, flags, help: `${label} (${chars(bounds)})`, parse: text(bounds), ...more };
};

/** An amount's two options, `--<name> <dollars>` and `--<name>-cents <cents>`, of which one may be given. */
const amountOptions = (
  field: Field,
  name: string,
  help: { dollars: string; cents: string; notes?: WriteOption['notes'] },
): WriteOption[] => {
  const inCents = `--${name}-cents <cents>`;
  return [
    {
      field,
      flags: `--${name} <dollars>`,
      help: help.dollars,
      notes: help.notes,
      parse: dollars,
      conflicts: new Option(inCents).attributeName(),
    },
    { field, flags: inCents, help: help.cents, parse: cents },
  ];
};

const { quantity, attributes } = LIMITS;

/** Every option of create and update, in `--help` order. */
const WRITE_OPTIONS: readonly WriteOption[] = [
  textOption('sku', '--sku <sku>', 'stock-keeping unit, unique in the organization', { required: true }),
  textOption('title', '--title <title>', 'title', { required: true }),
  textOption('description', '--description <text>', 'description'),
  {
    field: 'quantity',
    flags: '--quantity <n>',
    help: `units available, ${quantity.min} to ${groupDigits(quantity.max)}`,
    notes: { create: ` (default: ${quantity.default})` },
    parse: integer(quantity),
  },
  ...amountOptions('valueInCents', 'value', {
    dollars: "owner's value in dollars: 125, 125.5 or 125.50",
    cents: "owner's value in whole cents: 12550 is $125.50",
    notes: { create: ` (default: ${LIMITS.valueInCents.default})` },
  }),
  ...amountOptions('acquisitionPriceInCents', 'acquisition-price', {
    dollars: 'cost basis in dollars: 99 or 99.95',
    cents: 'cost basis in whole cents',
  }),
  {
    field: 'acquisitionDate',
    flags: '--acquisition-date <date>',
    help: 'when acquired: 2026-03-01 (midnight UTC) or an ISO date-time with Z or an offset',
    parse: dateTime,
  },
  textOption('acquiredFrom', '--acquired-from <text>', 'acquired from'),
  textOption('acquisitionNotes', '--acquisition-notes <text>', 'acquisition notes'),
  textOption('gradingService', '--grading-service <service>', 'grading service, e.g. PCGS, NGC'),
  textOption('grade', '--grade <grade>', 'grade, e.g. MS65'),
  textOption('certificateNumber', '--certificate-number <cert>', 'grading certificate number'),
  textOption('gradingNotes', '--grading-notes <text>', 'grading notes'),
  { field: 'categoryId', flags: '--category-id <uuid>', help: 'a category of the organization', parse: uuid },
  {
    field: 'attributes',
    flags: '--attr <key=value>',
    help: `an attribute (repeatable): year=1921 (number), proof=true, mint=Philadelphia (string), pedigree=null; key:=json for exact JSON, e.g. year:='"1921"'. At most ${attributes.maxKeys} keys.`,
    notes: { update: ' Replaces all attributes.' },
    parse: repeatable(attribute),
    toField: (entries) => attributeMap(entries as ReadonlyArray<readonly [string, AttributeValue]>),
    conflicts: 'attributesJson',
  },
  {
    field: 'attributes',
    flags: '--attributes-json <json>',
    help: `all attributes as a JSON object, e.g. '{"year":1921,"mint":"Philadelphia"}'`,
    notes: { update: ' (replaces all attributes)' },
    parse: attributesJson,
  },
  {
    field: 'warehouseId',
    flags: '--warehouse-id <uuid>',
    help: 'a warehouse of the organization',
    notes: { create: " (default: the organization's default warehouse)" },
    parse: uuid,
  },
  {
    field: 'zoneId',
    flags: '--zone-id <uuid>',
    help: 'a zone of the warehouse',
    notes: { create: " (default: the warehouse's first zone)" },
    parse: uuid,
  },
  textOption('locationDetails', '--location-details <text>', 'position within the zone, e.g. a tray'),
];

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

/** What commander parsed: each option's value under its attribute name. */
interface WriteValues extends OutputOptions {
  clear?: ClearName[];
  [attribute: string]: unknown;
}

/** A table option as one command shows it. */
function commandOption(spec: WriteOption, mode: Mode): Option {
  const option = new Option(spec.flags, spec.help + (spec.notes?.[mode] ?? '')).argParser(spec.parse);
  if (spec.conflicts) option.conflicts(spec.conflicts);
  if (spec.required && mode === 'create') option.makeOptionMandatory();
  return option;
}

/** The shared options, update's `--clear`, and the output options. */
function addWriteOptions(command: Command, mode: Mode): Command {
  for (const spec of WRITE_OPTIONS) command.addOption(commandOption(spec, mode));
  if (mode === 'update') {
    command.addOption(
      new Option('--clear <field>', `clear a field (repeatable): ${CLEAR_NAMES.join(', ')}`).argParser(
        repeatable(oneOf(CLEAR_NAMES)),
      ),
    );
  }
  return addOutputOptions(command);
}

/** The body: each option given, under its field; then each `--clear`, as null. */
function bodyFrom(values: WriteValues, command: Command): UpdateItemInput {
  const body: Record<string, unknown> = {};
  const given = WRITE_OPTIONS.map((spec) => {
    const option = new Option(spec.flags);
    return { spec, flag: option.long, value: values[option.attributeName()] };
  });
  for (const { spec, flag, value } of given) {
    if (value === undefined) continue;
    try {
      body[spec.field] = spec.toField ? spec.toField(value) : value;
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      throw new UsageError(`${flag}: ${error.message}`, commandPath(command));
    }
  }
  for (const name of new Set(values.clear ?? [])) {
    const clashing = given.find(({ spec, value }) => spec.field === CLEARABLE[name] && value !== undefined);
    if (clashing) {
      throw new UsageError(`--clear ${name} cannot be used with ${clashing.flag}.`, commandPath(command));
    }
    body[CLEARABLE[name]] = null;
  }
  // Each value is its option's parsed (or mapped) value, which the table pairs with the field it sets.
  return body as UpdateItemInput;
}

/** Each command's body, checked before any request, and the request that sends it. */
const REQUESTS: Record<Mode, (values: WriteValues, command: Command) => (client: Coinventory) => Promise<Item>> = {
  create: (values, command) => {
    const body = bodyFrom(values, command);
    const { sku, title } = body;
    // Commander refuses a missing --sku or --title first; this proves them to the type.
    if (sku === undefined || title === undefined) {
      throw new UsageError('--sku and --title are required.', 'items create');
    }
    const input: CreateItemInput = { ...body, sku, title };
    return (client) => client.items.create(input);
  },
  update: (values, command) => {
    const body = bodyFrom(values, command);
    if (Object.keys(body).length === 0) {
      throw new UsageError('Nothing to update: give at least one field option or --clear.', 'items update');
    }
    // The argument's parser made it an ItemRef; a SKU is looked up just before the PATCH.
    const [ref] = command.processedArgs as [ItemRef];
    return async (client) => client.items.update(await itemId(client, ref), body);
  },
};

/**
 * Makes `command` (under `items`) create or update an item: the body first (its usage errors come before a missing
 * key), then the request, then the item it answers with.
 */
export function writeCommand(command: Command, mode: Mode): Command {
  addWriteOptions(command, mode);
  return writeAction<WriteValues, (client: Coinventory) => Promise<Item>>(
    command,
    REQUESTS[mode],
    async ({ format, io, client }, send) => {
      const item = await send(client);
      await printOne(io, format, item, itemView);
    },
  );
}
