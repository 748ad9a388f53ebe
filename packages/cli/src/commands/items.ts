import {
  ITEM_SORT_RULES,
  ITEM_SORTS,
  ITEM_STATUS_RULES,
  ITEM_STATUSES,
  type ItemSort,
  type ItemStatus,
  LIMITS,
  SEARCH_FIELDS,
} from '@coinventory/contract/constants';
import type { CreateItemInput, Item, ListItemsParams, UpdateItemInput, Valuation } from '@coinventory/sdk';
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
import type { Missing } from '../output/csv.js';
import { formatDate, formatMoney, formatText, groupDigits, NONE } from '../output/format.js';
import { printList, printObject, printPages, type View } from '../output/render.js';
import { type Column, renderDetails } from '../output/table.js';
import { confirm } from '../prompt.js';
import { globalOptions, ioFor, openSession } from '../session.js';
import {
  addListOptions,
  addOutputOptions,
  commandPath,
  defined,
  examples,
  type ListOptions,
  type OutputOptions,
  outputFormat,
  pagesOf,
} from './shared.js';

// ---------------------------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------------------------

const ITEM_CSV = [
  'id',
  'sku',
  'title',
  'description',
  'category.id',
  'category.name',
  'quantity.available',
  'quantity.sold',
  'quantity.reserved',
  'valueInCents',
  'acquisition.priceInCents',
  'acquisition.date',
  'acquisition.from',
  'acquisition.notes',
  'grading.service',
  'grading.grade',
  'grading.certificateNumber',
  'grading.notes',
  'attributes',
  'location.warehouseId',
  'location.zoneId',
  'location.details',
  'consignmentId',
  'isAtAuction',
  'images',
  'createdAt',
  'updatedAt',
] as const;
// Compile-time proof that the CSV has a column for every field of the contract's Item.
const itemCsvComplete: [Missing<Item, typeof ITEM_CSV>] extends [never] ? true : Missing<Item, typeof ITEM_CSV> = true;

const VALUATION_CSV = [
  'id',
  'itemId',
  'estimateLowInCents',
  'estimateInCents',
  'estimateHighInCents',
  'confidencePercent',
  'basis',
  'priceGuideValueInCents',
  'meltValueInCents',
  'summary',
  'comps',
  'appliedAt',
  'createdAt',
] as const;
const valuationCsvComplete: [Missing<Valuation, typeof VALUATION_CSV>] extends [never]
  ? true
  : Missing<Valuation, typeof VALUATION_CSV> = true;
void itemCsvComplete;
void valuationCsvComplete;

const grading = (item: Item): string =>
  [item.grading.service, item.grading.grade].filter((part): part is string => !!part).join(' ') || NONE;

const itemColumns: Column<Item>[] = [
  { header: 'ID', value: (i) => i.id, shrink: 'never' },
  { header: 'SKU', value: (i) => i.sku },
  { header: 'TITLE', value: (i) => i.title, shrink: 'first' },
  { header: 'QTY', value: (i) => String(i.quantity.available), align: 'right', reserve: 4 },
  { header: 'VALUE', value: (i) => formatMoney(i.valueInCents), align: 'right', reserve: 11 },
  { header: 'GRADE', value: grading },
  { header: 'CREATED', value: (i) => formatDate(i.createdAt), shrink: 'never' },
];

export const itemView: View<Item> = { noun: ['item', 'items'], columns: itemColumns, csv: ITEM_CSV };

const valuationView: View<Valuation> = {
  noun: ['valuation', 'valuations'],
  columns: [
    { header: 'CREATED', value: (v) => formatDate(v.createdAt), shrink: 'never' },
    { header: 'ESTIMATE', value: (v) => formatMoney(v.estimateInCents), align: 'right' },
    { header: 'LOW', value: (v) => formatMoney(v.estimateLowInCents), align: 'right' },
    { header: 'HIGH', value: (v) => formatMoney(v.estimateHighInCents), align: 'right' },
    {
      header: 'CONF',
      value: (v) => (v.confidencePercent === null ? NONE : `${v.confidencePercent}%`),
      align: 'right',
    },
    { header: 'BASIS', value: (v) => formatText(v.basis) },
    { header: 'COMPS', value: (v) => String(v.comps.length), align: 'right' },
    { header: 'APPLIED', value: (v) => formatDate(v.appliedAt), shrink: 'never' },
    { header: 'SUMMARY', value: (v) => formatText(v.summary), shrink: 'first' },
  ],
  csv: VALUATION_CSV,
};

function itemDetails(item: Item, style: Parameters<typeof renderDetails>[1]): string {
  const { acquisition: a, grading: g, location: l } = item;
  const acquired = [a.date ? formatDate(a.date) : undefined, a.from ? `from ${a.from}` : undefined]
    .filter(Boolean)
    .join(' ');
  const attributes = Object.entries(item.attributes).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return renderDetails(
    [
      ['ID', item.id],
      ['SKU', item.sku],
      ['Title', item.title],
      ['Description', formatText(item.description)],
      ['Category', item.category ? `${item.category.name} (${item.category.id})` : NONE],
      [
        'Quantity',
        `${item.quantity.available} available, ${item.quantity.sold} sold, ${item.quantity.reserved} reserved`,
      ],
      ['Value', formatMoney(item.valueInCents)],
      ['Cost basis', formatMoney(a.priceInCents)],
      ['Acquired', acquired || NONE],
      ['Acquisition notes', formatText(a.notes)],
      ['Grading', [grading(item), g.certificateNumber ? `cert ${g.certificateNumber}` : ''].filter(Boolean).join(', ')],
      ['Grading notes', formatText(g.notes)],
      ['Attributes', attributes.length ? attributes.join('\n') : NONE],
      ['Warehouse', l.warehouseId],
      ['Zone', l.zoneId],
      ['Location details', formatText(l.details)],
      ['Consignment', formatText(item.consignmentId)],
      ['At auction', item.isAtAuction ? 'yes' : 'no'],
      [
        'Images',
        item.images.length
          ? item.images
              .map((image) => `${image.url}${image.width && image.height ? ` (${image.width}x${image.height})` : ''}`)
              .join('\n')
          : NONE,
      ],
      ['Created', formatDate(item.createdAt)],
      ['Updated', formatDate(item.updatedAt)],
    ],
    style,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Write options (create and update)
// ---------------------------------------------------------------------------------------------------------------

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

interface WriteOptions extends OutputOptions {
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

function addWriteOptions(command: Command, mode: 'create' | 'update'): Command {
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

// ---------------------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------------------

interface ItemListOptions extends ListOptions {
  query?: string;
  status?: ItemStatus;
  categoryId?: string;
  gradingService?: string;
  grade?: string;
  sku?: string;
  sort?: ItemSort;
}

interface DeleteOptions extends OutputOptions {
  yes?: boolean;
}

interface ValuationOptions extends OutputOptions {
  limit?: number;
}

const idArgument = (command: Command, what = 'item'): Command =>
  command.argument('<id>', `the ${what}'s id (a UUID)`, uuid);

export function registerItems(program: Command): void {
  const items = program
    .command('items')
    .description('list, show, create, update and delete inventory items; show their valuations');

  const list = items
    .command('list')
    .alias('ls')
    .description('list items, one page or --all')
    .addOption(
      new Option(
        '-q, --query <text>',
        `search ${SEARCH_FIELDS.items.join(', ')} (case-insensitive substring, ${LIMITS.q.min}-${LIMITS.q.max} chars)`,
      ).argParser(text(LIMITS.q)),
    )
    .addOption(new Option('--status <status>', 'only items in this state (see Statuses below)').choices(ITEM_STATUSES))
    .addOption(new Option('--category-id <uuid>', 'only items in this category').argParser(uuid))
    .addOption(
      new Option(
        '--grading-service <service>',
        'only items graded by this service, e.g. PCGS (exact, any case)',
      ).argParser(text({ min: 1, max: LIMITS.gradingService.max })),
    )
    .addOption(
      new Option('--grade <grade>', 'only items with this grade, e.g. MS65 (exact, any case)').argParser(
        text({ min: 1, max: LIMITS.grade.max }),
      ),
    )
    .addOption(new Option('--sku <sku>', 'only the item with this SKU (exact)').argParser(text(LIMITS.sku)))
    .addOption(new Option('--sort <order>', 'order (default: newest; see Sorts below)').choices(ITEM_SORTS))
    .action(async (_options: ItemListOptions, command: Command) => {
      const options = command.opts<ItemListOptions>();
      const format = outputFormat(options, command);
      const io = ioFor(command);
      const { client } = openSession(globalOptions(command), io);
      const params: ListItemsParams = defined({
        q: options.query,
        status: options.status,
        categoryId: options.categoryId,
        gradingService: options.gradingService,
        grade: options.grade,
        sku: options.sku,
        sort: options.sort,
        page: options.page,
        limit: options.limit,
      });
      await printPages(
        io,
        itemView,
        { format, all: options.all === true },
        pagesOf(client.items.list(params), options.all),
      );
    });
  addListOptions(list);
  addOutputOptions(list);
  list.addHelpText(
    'after',
    `\nStatuses:\n${ITEM_STATUSES.map((s) => `  ${s.padEnd(14)}${ITEM_STATUS_RULES[s].replace(/`/g, '')}`).join('\n')}\n` +
      `\nSorts:\n${ITEM_SORTS.map((s) => `  ${s.padEnd(12)}${ITEM_SORT_RULES[s].replace(/`/g, '')}`).join('\n')}`,
  );
  examples(list, [
    'coinventory items list',
    'coinventory items list --status in_stock --grading-service PCGS --sort value_desc --limit 50 --page 2',
    'coinventory items list -q morgan --all --output csv > morgans.csv',
    "coinventory items list --all --json | jq -r '.[] | select(.quantity.available == 0) | .sku'",
  ]);

  const get = idArgument(items.command('get').alias('show').description('show one item'));
  get.action(async (id: string, _options: OutputOptions, command: Command) => {
    const format = outputFormat(command.opts<OutputOptions>(), command);
    const io = ioFor(command);
    const { client } = openSession(globalOptions(command), io);
    const item = await client.items.get(id);
    await printObject(io, format, item, { details: (i) => itemDetails(i, io.style), csv: ITEM_CSV });
  });
  addOutputOptions(get);
  examples(get, [
    'coinventory items get 3f5a7dec-b331-4659-8f5a-474ef56754dd',
    'coinventory items get <id> --json | jq .valueInCents',
  ]);

  const create = items.command('create').description('add an item (--sku and --title required)');
  addWriteOptions(create, 'create');
  create.action(async (_options: WriteOptions, command: Command) => {
    const options = command.opts<WriteOptions>();
    const format = outputFormat(options, command);
    const body = bodyFrom(options, command);
    const { sku, title } = options;
    if (sku === undefined || title === undefined) {
      throw new UsageError('--sku and --title are required.', 'items create');
    }
    const io = ioFor(command);
    const { client } = openSession(globalOptions(command), io);
    const input: CreateItemInput = { ...body, sku, title };
    const item = await client.items.create(input);
    await printObject(io, format, item, { details: (i) => itemDetails(i, io.style), csv: ITEM_CSV });
  });
  examples(create, [
    'coinventory items create --sku MOR-1921-MS63 --title "1921 Morgan Dollar MS63" --value 45',
    'coinventory items create --sku ASE-2024 --title "2024 Silver Eagle" --quantity 20 --value-cents 3850 --attr year=2024 --attr mint=Philadelphia',
    'coinventory items create --sku SLQ-1917 --title "1917 Standing Liberty Quarter" --grading-service PCGS --grade MS64 --acquisition-price 310.50 --acquisition-date 2026-03-01 --json',
  ]);

  const update = idArgument(
    items.command('update').alias('edit').description('change the fields given; --clear empties one'),
  );
  addWriteOptions(update, 'update');
  update.action(async (id: string, _options: WriteOptions, command: Command) => {
    const options = command.opts<WriteOptions>();
    const format = outputFormat(options, command);
    const body = bodyFrom(options, command);
    if (Object.keys(body).length === 0) {
      throw new UsageError('Nothing to update: give at least one field option or --clear.', 'items update');
    }
    const io = ioFor(command);
    const { client } = openSession(globalOptions(command), io);
    const item = await client.items.update(id, body);
    await printObject(io, format, item, { details: (i) => itemDetails(i, io.style), csv: ITEM_CSV });
  });
  examples(update, [
    'coinventory items update <id> --quantity 3',
    'coinventory items update <id> --value 125.50 --grade MS65 --grading-service NGC',
    'coinventory items update <id> --clear certificate-number --clear grading-notes',
  ]);

  const remove = idArgument(
    items.command('delete').alias('rm').description('delete an item (and its marketplace listings)'),
  ).option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)');
  addOutputOptions(remove, ['table', 'json']);
  remove.action(async (id: string, _options: DeleteOptions, command: Command) => {
    const options = command.opts<DeleteOptions>();
    const format = outputFormat(options, command);
    const io = ioFor(command);
    const { client } = openSession(globalOptions(command), io);
    if (!options.yes) {
      if (!io.stdinIsTTY) {
        throw new UsageError(
          'Refusing to delete without confirmation: pass --yes when stdin is not a terminal.',
          'items delete',
        );
      }
      if (!(await confirm(`Delete item ${id} and any marketplace listing made from it?`))) {
        io.notice('Not deleted.');
        process.exitCode = 1;
        return;
      }
    }
    const result = await client.items.delete(id);
    if (format === 'json') await printObject(io, format, result, { details: () => '' });
    else await io.out.write(`Deleted item ${result.id}\n`);
  });
  examples(remove, ['coinventory items delete <id>', 'coinventory items delete <id> --yes --json']);

  const valuations = idArgument(
    items
      .command('valuations')
      .description("show an item's valuations, newest first, with their comparable sales in --json"),
  ).addOption(
    new Option(
      '--limit <n>',
      `how many, ${LIMITS.valuationLimit.min} to ${LIMITS.valuationLimit.max} (default: ${LIMITS.valuationLimit.default})`,
    ).argParser(integer(LIMITS.valuationLimit)),
  );
  addOutputOptions(valuations);
  valuations.action(async (id: string, _options: ValuationOptions, command: Command) => {
    const options = command.opts<ValuationOptions>();
    const format = outputFormat(options, command);
    const io = ioFor(command);
    const { client } = openSession(globalOptions(command), io);
    const { items: list } = await client.items.valuations(id, defined({ limit: options.limit }));
    await printList(io, valuationView, format, list);
  });
  examples(valuations, [
    'coinventory items valuations <id>',
    'coinventory items valuations <id> --limit 1 --json | jq .[0].comps',
  ]);
}
