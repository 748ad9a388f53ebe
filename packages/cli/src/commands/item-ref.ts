import { ERRORS, LIMITS } from '@coinventory/contract/constants';
import { UUID_PATTERN } from '@coinventory/contract/text-rules';
import type { Coinventory, Item } from '@coinventory/sdk';
import type { Command } from 'commander';
import { CliError, EXIT } from '../errors.js';
import { text } from '../options.js';
import type { GetArgument } from './resource.js';
import { shellWord } from './shared.js';

// `<id|sku>`: the item commands take an item's id or its SKU, as staff know items by their SKU.

/** The item an argument names: by its id (a UUID), or by its SKU (anything else). */
export type ItemRef = { id: string; sku?: undefined } | { sku: string; id?: undefined };

/** A UUID is an id, as before; any other text is an exact SKU, checked against the SKU's bounds. */
export function itemRef(value: string): ItemRef {
  return UUID_PATTERN.test(value) ? { id: value } : { sku: text(LIMITS.sku)(value) };
}

const FLAGS = '<id|sku>';
const HELP = "the item's id (a UUID), or its SKU (exact, case included)";

/** Adds the `<id|sku>` argument, parsed to an ItemRef before any request. */
export function itemArgument(command: Command): Command {
  return command.argument(FLAGS, HELP, itemRef);
}

/** The item with this SKU, looked up with the list's exact `sku` filter; exit 4, as for an unknown id, when none. */
export async function itemBySku(client: Coinventory, sku: string): Promise<Item> {
  const [item] = (await client.items.list({ sku, limit: 1 })).items;
  if (item) return item;
  throw new CliError(
    `${ERRORS.NOT_FOUND.message} (NOT_FOUND): no item has the SKU ${JSON.stringify(sku)}`,
    EXIT.NOT_FOUND,
    [`SKUs match exactly, case included. To search: coinventory items list -q ${shellWord(sku)}`],
  );
}

/** The item itself: `GET /items/{id}` for an id (unchanged), the SKU lookup's answer for a SKU. */
export function findItem(client: Coinventory, ref: ItemRef): Promise<Item> {
  return ref.id !== undefined ? client.items.get(ref.id) : itemBySku(client, ref.sku);
}

/** `items get <id|sku>`. */
export const ITEM_GET_ARGUMENT: GetArgument<Item> = {
  flags: FLAGS,
  description: HELP,
  parse: (value) => {
    const ref = itemRef(value);
    return (client) => findItem(client, ref);
  },
};

/** The item's id: an id as given, without a request; a SKU looked up first. */
export async function itemId(client: Coinventory, ref: ItemRef): Promise<string> {
  return ref.id ?? (await itemBySku(client, ref.sku)).id;
}
