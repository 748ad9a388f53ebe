import {
  ITEM_SORT_RULES,
  ITEM_SORTS,
  ITEM_STATUS_RULES,
  ITEM_STATUSES,
  LIMITS,
  SEARCH_FIELDS,
} from '@coinventory/contract/constants';
import { type Command, Option } from 'commander';
import { integer, text, uuid } from '../options.js';
import { fieldsOption } from '../output/fields.js';
import { onePage } from '../output/render.js';
import { deleteCommand } from './delete.js';
import { registerItemExport } from './item-export.js';
import { registerItemImport } from './item-import.js';
import { registerItemAdjust, registerItemMovements } from './item-quantities.js';
import { ITEM_GET_ARGUMENT, type ItemRef, itemArgument, itemId } from './item-ref.js';
import { itemView, valuationView } from './item-views.js';
import { writeCommand } from './item-writes.js';
import { printListed, resourceCommands, searchOption, statusOption } from './resource.js';
import { addOutputOptions, apiAction, defined, examples, type OutputOptions } from './shared.js';

interface ValuationOptions extends OutputOptions {
  fields?: string[];
  limit?: number;
}

/** `--status` and `--sort` values with what each selects, from the contract's rules, for `items list --help`. */
const LIST_HELP =
  `\nStatuses:\n${ITEM_STATUSES.map((s) => `  ${s.padEnd(14)}${ITEM_STATUS_RULES[s].replace(/`/g, '')}`).join('\n')}\n` +
  `\nSorts:\n${ITEM_SORTS.map((s) => `  ${s.padEnd(12)}${ITEM_SORT_RULES[s].replace(/`/g, '')}`).join('\n')}`;

/** The filters `items list` and `items export` share (new options each time: a command owns its options). */
function itemFilters(statusHelp = '') {
  return {
    status: statusOption('items', ITEM_STATUSES, statusHelp),
    categoryId: new Option('--category-id <uuid>', 'only items in this category').argParser(uuid),
    gradingService: new Option(
      '--grading-service <service>',
      'only items graded by this service, e.g. PCGS (exact, any case)',
    ).argParser(text({ min: 1, max: LIMITS.gradingService.max })),
    grade: new Option('--grade <grade>', 'only items with this grade, e.g. MS65 (exact, any case)').argParser(
      text({ min: 1, max: LIMITS.grade.max }),
    ),
    sku: new Option('--sku <sku>', 'only the item with this SKU (exact)').argParser(text(LIMITS.sku)),
  };
}

export function registerItems(program: Command): void {
  const items = resourceCommands(program, {
    name: 'items',
    description:
      'list, show, create, update, adjust, delete, import and export inventory items; show their movements and valuations',
    view: itemView,
    list: {
      description: 'list items, one page or --all',
      filters: {
        ...itemFilters(' (see Statuses below)'),
        sort: new Option('--sort <order>', 'order (default: newest; see Sorts below)').choices(ITEM_SORTS),
      },
      help: LIST_HELP,
      examples: [
        'coinventory items list',
        'coinventory items list --status in_stock --grading-service PCGS --sort value_desc --limit 50 --page 2',
        'coinventory items list -q morgan --all --output csv > morgans.csv',
        "coinventory items list --all --json | jq -r '.items[] | select(.quantity.available == 0) | .sku'",
      ],
    },
    get: {
      description: 'show one item, by id or SKU',
      argument: ITEM_GET_ARGUMENT,
      examples: [
        'coinventory items get 3f5a7dec-b331-4659-8f5a-474ef56754dd',
        'coinventory items get MOR-1893-S-30',
        'coinventory items get <id|sku> --json | jq .valueInCents',
      ],
    },
  });

  examples(writeCommand(items.command('create').description('add an item (--sku and --title required)'), 'create'), [
    'coinventory items create --sku MOR-1921-MS63 --title "1921 Morgan Dollar MS63" --value 45',
    'coinventory items create --sku ASE-2024 --title "2024 Silver Eagle" --quantity 20 --value-cents 3850 --attr year=2024 --attr mint=Philadelphia',
    'coinventory items create --sku SLQ-1917 --title "1917 Standing Liberty Quarter" --grading-service PCGS --grade MS64 --acquisition-price 310.50 --acquisition-date 2026-03-01 --json',
  ]);

  const update = items
    .command('update')
    .alias('edit')
    .description('change the fields given, of an item given by id or SKU; --clear empties one');
  examples(writeCommand(itemArgument(update), 'update'), [
    'coinventory items update <id> --quantity 3',
    'coinventory items update MOR-1893-S-30 --value 125.50 --grade MS65 --grading-service NGC',
    'coinventory items update <id|sku> --clear certificate-number --clear grading-notes',
  ]);

  registerItemAdjust(items);
  registerItemDelete(items);
  registerItemMovements(items);
  registerItemValuations(items);
  registerItemImport(items);
  // The export takes the list's filters (not its page, limit or sort).
  registerItemExport(items, { q: searchOption(SEARCH_FIELDS.items), ...itemFilters() });
}

/** `items delete`: by id or SKU, after a question that names the item. */
function registerItemDelete(items: Command): void {
  const remove = itemArgument(
    items.command('delete').alias('rm').description('delete an item, by id or SKU (and its marketplace listings)'),
  );
  deleteCommand(remove, async (ref: ItemRef, client) => {
    // A SKU is looked up before the question, so the question names the item that would go.
    const id = await itemId(client, ref);
    const sku = ref.sku === undefined ? '' : ` (${ref.sku})`;
    return {
      question: `Delete item ${id}${sku} and any marketplace listing made from it?`,
      remove: () => client.items.delete(id),
      deleted: (deleted) => `Deleted item ${deleted}${sku}`,
    };
  });
  examples(remove, ['coinventory items delete <id>', 'coinventory items delete MOR-1893-S-30 --yes --json']);
}

/** `items valuations`: an item's valuations, newest first. */
function registerItemValuations(items: Command): void {
  const valuations = itemArgument(
    items
      .command('valuations')
      .description("show an item's valuations (by id or SKU), newest first, with their comparable sales in --json"),
  ).addOption(
    new Option(
      '--limit <n>',
      `how many, ${LIMITS.valuationLimit.min} to ${LIMITS.valuationLimit.max} (default: ${LIMITS.valuationLimit.default})`,
    ).argParser(integer(LIMITS.valuationLimit)),
  );
  addOutputOptions(valuations, undefined, "print the API's body as JSON, { items } (same as --output json)");
  valuations.addOption(fieldsOption(valuationView.csv));
  apiAction<ValuationOptions, [ItemRef]>(valuations, async ({ options, format, io, client }, ref) => {
    const id = await itemId(client, ref);
    const { items: list } = await client.items.valuations(id, defined({ limit: options.limit }));
    await printListed(io, valuationView, { format, all: false, paged: false, fields: options.fields }, () =>
      onePage(list),
    );
  });
  examples(valuations, [
    'coinventory items valuations <id>',
    'coinventory items valuations MOR-1893-S-30 --limit 1 --json | jq .items[0].comps',
  ]);
}
