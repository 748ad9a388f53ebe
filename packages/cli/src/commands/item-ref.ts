import { LIMITS } from '@coinventory/contract/constants';
import { UUID_PATTERN } from '@coinventory/contract/text-rules';
import { type Coinventory, type Item, NotFoundError } from '@coinventory/sdk';
import type { Command } from 'commander';
import { ExplainedError } from '../errors.js';
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

/**
 * The item itself: `GET /items/{id}` for an id (unchanged), the SDK's lookup by SKU for a SKU (exit 4, as for an
 * unknown id, when no item has it).
 */
export function findItem(client: Coinventory, ref: ItemRef): Promise<Item> {
  if (ref.id !== undefined) return client.items.get(ref.id);
  const { sku } = ref;
  return client.items.getBySku(sku).catch((error: unknown) => {
    if (!(error instanceof NotFoundError)) throw error;
    throw new ExplainedError(error, { hints: [`To search: coinventory items list -q ${shellWord(sku)}`] });
  });
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
  return ref.id ?? (await findItem(client, ref)).id;
}
