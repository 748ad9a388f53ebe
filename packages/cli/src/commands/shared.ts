import { LIMITS } from '@coinventory/contract/constants';
import type { Page, PageParams, PagePromise } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { integer } from '../options.js';
import type { OutputFormat, PageLike } from '../output/render.js';

export interface OutputOptions {
  json?: boolean;
  output?: OutputFormat;
}

export interface ListOptions extends OutputOptions {
  page?: number;
  limit?: number;
  all?: boolean;
}

/** `--json` and `-o, --output <format>` (table by default). */
export function addOutputOptions(
  command: Command,
  formats: readonly OutputFormat[] = ['table', 'json', 'csv'],
): Command {
  return command
    .addOption(new Option('-o, --output <format>', 'output format (default: table)').choices(formats))
    .option('--json', 'print the API objects as JSON (same as --output json)');
}

/** The chosen format; `--json` with another `--output` is a usage error. */
export function outputFormat(options: OutputOptions, command: Command): OutputFormat {
  if (options.json && options.output && options.output !== 'json') {
    throw new UsageError(`--json cannot be used with --output ${options.output}.`, commandPath(command));
  }
  return options.json ? 'json' : (options.output ?? 'table');
}

/** `--page`, `--limit` and `--all`, with the contract's bounds. */
export function addListOptions(command: Command): Command {
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

/** Help text listing examples, shown after the options. */
export function examples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** The command's path without the program name: `items list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Copies defined values only, so unset options are not sent. */
export function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
