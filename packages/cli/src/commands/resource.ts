import { LIMITS, SEARCH_FIELDS } from '@coinventory/contract/constants';
import type { Coinventory, Page, PageParams, PagePromise } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import type { IO } from '../io.js';
import { integer, text, uuid } from '../options.js';
import { fieldColumns, fieldDetails, fieldsOption, fieldsView, pickFields, pickPages } from '../output/fields.js';
import {
  type DetailView,
  type ListOutput,
  type OutputFormat,
  type PageLike,
  printObject,
  printOne,
  printPages,
  type View,
} from '../output/render.js';
import { addOutputOptions, apiAction, defined, examples, LIST_JSON_HELP, type OutputOptions } from './shared.js';

export interface ListOptions extends OutputOptions {
  page?: number;
  limit?: number;
  all?: boolean;
  /** `--fields`: checked names. */
  fields?: string[];
}

/** The parameters every list takes: the page and the search. */
type ListParams = PageParams & { q?: string };

/**
 * A resource the CLI lists and shows, by its one name: the command group's, the SDK client's property (`client.items`)
 * and, for the lists that search, the key of its search fields in the contract.
 */
type ResourceName = {
  [K in keyof Coinventory]: Coinventory[K] extends { list: unknown; get: unknown } ? K : never;
}[keyof Coinventory];
/** What the resource's `get` answers with: `Item`. */
type ValueOf<N extends ResourceName> = Awaited<ReturnType<Coinventory[N]['get']>>;
/** What the resource's `list` takes: `ListItemsParams`. */
type ParamsOf<N extends ResourceName> = NonNullable<Parameters<Coinventory[N]['list']>[0]>;

/** What the SDK offers for every resource the CLI lists and shows. */
interface ListAndGet<T, P extends PageParams> {
  list(params: P): PagePromise<T, P>;
  get(id: string): Promise<T>;
}

/** The client as the factory sees it: each listed resource with its own value and parameter types. */
type Listed = { readonly [N in ResourceName]: ListAndGet<ValueOf<N>, ParamsOf<N>> };

/** How a command fetches the object its argument names, once it has a client. */
export type Finder<T> = (client: Coinventory) => Promise<T>;

/** The argument `get` takes: `<id>` unless the resource names its objects another way too (items: `<id|sku>`). */
export interface GetArgument<T> {
  flags: string;
  description: string;
  /** Checks the text before any request (throwing commander's InvalidArgumentError) and says how to fetch it. */
  parse(value: string): Finder<T>;
}

/**
 * A resource's `get`, each part defaulted from the view: `show one <noun>`, and with the default `<id>` argument the
 * examples `get <id>` and `get <id> --json`. A resource whose argument names objects another way gives its examples.
 */
type GetSpec<T> = { description?: string } & (
  | { argument?: undefined; examples?: readonly string[] }
  | { argument: GetArgument<T>; examples: readonly string[] }
);

/** A resource's `list` and `get` commands. */
export interface ResourceCommands<N extends ResourceName> {
  name: N;
  /** The command group's name when it is not the client's property: `webhooks` for `client.webhookEndpoints`. */
  command?: string;
  description: string;
  /** Help text of the command group, after its commands. */
  help?: string;
  view: DetailView<ValueOf<N>>;
  list: {
    description: string;
    /**
     * An option for every list parameter but the page and the search (`--page`, `--limit`, `--all` and `-q` are every
     * list's), keyed by the parameter it sets, in the order `--help` shows them after `-q`. A parameter without its
     * option is a compile error.
     */
    filters: { readonly [K in Exclude<keyof ParamsOf<N>, keyof ListParams>]-?: Option };
    /** Help text after the options, before the examples. */
    help?: string;
    examples: readonly string[];
  };
  get?: GetSpec<ValueOf<N>>;
}

/** The contract's search fields of a list that searches (`q`); none for the others (categories, warehouses). */
function searchFieldsOf(name: string): readonly string[] | undefined {
  return Object.entries(SEARCH_FIELDS).find(([resource]) => resource === name)?.[1];
}

/** `-q, --query <text>`: the search a list offers, over the contract's search fields. */
export function searchOption(fields: readonly string[]): Option {
  return new Option(
    '-q, --query <text>',
    `search ${fields.join(', ')} (case-insensitive substring, ${LIMITS.q.min}-${LIMITS.q.max} chars)`,
  ).argParser(text(LIMITS.q));
}

/** `--status <status>`: a list's filter by state, offering the contract's states; `help` follows the description. */
export function statusOption(entries: string, statuses: readonly string[], help = ''): Option {
  return new Option('--status <status>', `only ${entries} in this state${help}`).choices(statuses);
}

/** `--page`, `--limit` and `--all`, with the contract's bounds; `entries` is the plural noun (`items`). */
export function addListOptions(command: Command, entries: string): Command {
  const { listLimit, page } = LIMITS;
  return command
    .addOption(
      new Option('--page <n>', `page number, from ${page.min} (default: ${page.default})`).argParser(
        integer({ min: page.min, max: page.max }),
      ),
    )
    .addOption(
      new Option(
        '--limit <n>',
        `${entries} per page, ${listLimit.min} to ${listLimit.max} (default: ${listLimit.default})`,
      ).argParser(integer(listLimit)),
    )
    .option('--all', 'fetch every page (from --page), printing each as it arrives; progress on stderr');
}

/** The pages to print: the one asked for, or with `--all` every page from it on. */
export async function* pagesOf<T, P extends PageParams>(
  list: PagePromise<T, P>,
  all: boolean | undefined,
): AsyncGenerator<PageLike<T>> {
  if (!all) {
    const page: Page<T, P> = await list;
    yield page;
    return;
  }
  yield* list.iterPages();
}

/** Adds the resource's command group with `list` (alias `ls`) and `get` (alias `show`); returns the group. */
export function resourceCommands<N extends ResourceName>(program: Command, spec: ResourceCommands<N>): Command {
  const resource = (client: Listed) => client[spec.name];
  const name = spec.command ?? spec.name;
  const group = program.command(name).description(spec.description);
  if (spec.help) group.addHelpText('after', spec.help);
  const search = searchFieldsOf(spec.name);
  const filters: ReadonlyArray<readonly [string, Option]> = [
    ...(search ? [['q', searchOption(search)] as const] : []),
    ...Object.entries<Option>(spec.list.filters),
  ];

  const list = group.command('list').alias('ls').description(spec.list.description);
  for (const [, option] of filters) list.addOption(option);
  apiAction<ListOptions>(list, async ({ options, format, io, client }) => {
    const values = list.opts<Record<string, unknown>>();
    // Each filter's value under the parameter its option sets; the spec's type ties the two.
    const params = defined({
      ...Object.fromEntries(filters.map(([param, option]) => [param, values[option.attributeName()]])),
      page: options.page,
      limit: options.limit,
    }) as ParamsOf<N>;
    await printListed(io, spec.view, { format, all: options.all === true, fields: options.fields }, () =>
      pagesOf(resource(client).list(params), options.all),
    );
  });
  addListOptions(list, spec.view.noun[1]);
  addOutputOptions(list, undefined, LIST_JSON_HELP);
  list.addOption(fieldsOption(spec.view.csv));
  if (spec.list.help) list.addHelpText('after', spec.list.help);
  examples(list, spec.list.examples);

  const { argument: given, description, examples: getExamples } = spec.get ?? {};
  const argument: GetArgument<ValueOf<N>> = given ?? {
    flags: '<id>',
    description: `the ${spec.view.noun[0]}'s id (a UUID)`,
    parse: (value) => {
      const id = uuid(value);
      return (client) => resource(client).get(id);
    },
  };
  const get = group
    .command('get')
    .alias('show')
    .description(description ?? `show one ${spec.view.noun[0]}`)
    .argument(argument.flags, argument.description, argument.parse);
  apiAction<GetOptions, [Finder<ValueOf<N>>]>(get, async ({ options, format, io, client }, find) => {
    const value = await find(client);
    if (options.fields) await printFields(io, format, value, spec.view.csv, options.fields);
    else await printOne(io, format, value, spec.view);
  });
  addOutputOptions(get);
  get.addOption(fieldsOption(spec.view.csv));
  examples(get, getExamples ?? [`coinventory ${name} get <id>`, `coinventory ${name} get <id> --json`]);
  return group;
}

export interface GetOptions extends OutputOptions {
  fields?: string[];
}

/** Prints a list, all of each object or (with `--fields`) only the fields asked for. */
export async function printListed<T>(
  io: IO,
  view: View<T>,
  output: ListOutput & { fields: readonly string[] | undefined },
  pages: () => AsyncIterable<PageLike<T>>,
): Promise<number> {
  if (!output.fields) return printPages(io, view, output, pages());
  return printPages(io, fieldsView(view, output.fields), output, pickPages(pages(), output.fields));
}

/** Prints one object's chosen fields: a detail view, JSON with only those keys, or a one-row CSV. */
export async function printFields(
  io: IO,
  format: OutputFormat,
  value: unknown,
  columns: readonly string[],
  fields: readonly string[],
): Promise<void> {
  await printObject(io, format, pickFields(value, fields), {
    details: (picked) => fieldDetails(picked, fields, columns, io.style),
    csv: fieldColumns(fields, columns),
  });
}
