import { LIMITS, SEARCH_FIELDS } from '@coinventory/contract/constants';
import type { Coinventory, Page, PageParams, PagePromise } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import type { IO } from '../io.js';
import { integer, text, uuid } from '../options.js';
import { type PageLike, printObject, printPages, type View } from '../output/render.js';
import { globalOptions, openSession } from '../session.js';
import { addOutputOptions, defined, examples, invocation, type OutputOptions } from './shared.js';

interface ListOptions extends OutputOptions {
  page?: number;
  limit?: number;
  all?: boolean;
}

/** The parameters every list takes: the page and the search. */
type ListParams = PageParams & { q?: string };

/**
 * A resource the CLI lists and shows, by its one name: the command group's, the SDK client's property (`client.items`)
 * and the key of its search fields in the contract.
 */
type ResourceName = keyof typeof SEARCH_FIELDS & keyof Coinventory;
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

/** A resource's `list` and `get` commands. */
export interface ResourceCommands<N extends ResourceName> {
  name: N;
  description: string;
  view: View<ValueOf<N>>;
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
  get: {
    description: string;
    /** The detail view of one object. */
    details: (value: ValueOf<N>, io: IO) => string;
    examples: readonly string[];
  };
}

/** `-q, --query <text>`: the search every list offers, over the contract's search fields. */
function searchOption(fields: readonly string[]): Option {
  return new Option(
    '-q, --query <text>',
    `search ${fields.join(', ')} (case-insensitive substring, ${LIMITS.q.min}-${LIMITS.q.max} chars)`,
  ).argParser(text(LIMITS.q));
}

/** `--page`, `--limit` and `--all`, with the contract's bounds. */
function addListOptions(command: Command): Command {
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
        `items per page, ${listLimit.min} to ${listLimit.max} (default: ${listLimit.default})`,
      ).argParser(integer(listLimit)),
    )
    .option('--all', 'fetch every page (from --page), printing each as it arrives; progress on stderr');
}

/** The pages to print: the one asked for, or with `--all` every page from it on. */
async function* pagesOf<T, P extends PageParams>(
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

/** `<id>`, checked to be a UUID before any request. */
export function idArgument(command: Command, noun: string): Command {
  return command.argument('<id>', `the ${noun}'s id (a UUID)`, uuid);
}

/** Adds the resource's command group with `list` (alias `ls`) and `get` (alias `show`); returns the group. */
export function resourceCommands<N extends ResourceName>(program: Command, spec: ResourceCommands<N>): Command {
  const resource = (client: Listed) => client[spec.name];
  const group = program.command(spec.name).description(spec.description);
  const filters: ReadonlyArray<[string, Option]> = [
    ['q', searchOption(SEARCH_FIELDS[spec.name])],
    ...Object.entries<Option>(spec.list.filters),
  ];

  const list = group.command('list').alias('ls').description(spec.list.description);
  for (const [, option] of filters) list.addOption(option);
  list.action(async (_options: ListOptions, command: Command) => {
    const { options, format, io } = invocation<ListOptions>(command);
    const { client } = openSession(globalOptions(command), io);
    const values = command.opts<Record<string, unknown>>();
    // Each filter's value under the parameter its option sets; the spec's type ties the two.
    const params = defined({
      ...Object.fromEntries(filters.map(([param, option]) => [param, values[option.attributeName()]])),
      page: options.page,
      limit: options.limit,
    }) as ParamsOf<N>;
    await printPages(
      io,
      spec.view,
      { format, all: options.all === true },
      pagesOf(resource(client).list(params), options.all),
    );
  });
  addListOptions(list);
  addOutputOptions(list);
  if (spec.list.help) list.addHelpText('after', spec.list.help);
  examples(list, spec.list.examples);

  const get = idArgument(group.command('get').alias('show').description(spec.get.description), spec.view.noun[0]);
  get.action(async (id: string, _options: unknown, command: Command) => {
    const { format, io } = invocation(command);
    const { client } = openSession(globalOptions(command), io);
    const value = await resource(client).get(id);
    await printObject(io, format, value, { details: (v) => spec.get.details(v, io), csv: spec.view.csv });
  });
  addOutputOptions(get);
  examples(get, spec.get.examples);
  return group;
}
