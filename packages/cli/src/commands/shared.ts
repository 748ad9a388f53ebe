import { CHANGE_TYPES } from '@coinventory/contract/constants';
import type { Coinventory } from '@coinventory/sdk';
import { type Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import type { OutputFormat } from '../output/render.js';
import { globalOptions, ioFor, openSession } from '../session.js';

export interface OutputOptions {
  json?: boolean;
  output?: OutputFormat;
}

/** `--json`'s help on a paged list: what it prints instead of one object. */
export const LIST_JSON_HELP =
  "print the API's list body as JSON, { items, page, limit, hasMore } (with --all: { items, hasMore }; same as --output json)";

/** `--json` and `-o, --output <format>` (table by default). */
export function addOutputOptions(
  command: Command,
  formats: readonly OutputFormat[] = ['table', 'json', 'csv'],
  jsonHelp = 'print the API objects as JSON (same as --output json)',
): Command {
  return command
    .addOption(new Option('-o, --output <format>', 'output format (default: table)').choices(formats))
    .option('--json', jsonHelp);
}

/** The chosen format; `--json` with another `--output` is a usage error. */
export function outputFormat(options: OutputOptions, command: Command): OutputFormat {
  if (options.json && options.output && options.output !== 'json') {
    throw new UsageError(`--json cannot be used with --output ${options.output}.`, commandPath(command));
  }
  return options.json ? 'json' : (options.output ?? 'table');
}

/** What every command that prints starts from. */
export interface Invocation<O> {
  /** The command's own options (the program's are in `globalOptions`). */
  options: O;
  format: OutputFormat;
  io: IO;
}

/** The command's options, its output format (checked first: a clash is a usage error) and its terminal. */
export function invocation<O extends OutputOptions>(command: Command): Invocation<O> {
  const options = command.opts<O>();
  return { options, format: outputFormat(options, command), io: ioFor(command) };
}

/** What a command that calls the API starts from: its invocation, and the client its global options name. */
export interface ApiInvocation<O> extends Invocation<O> {
  client: Coinventory;
}

/**
 * Sets the action of a command that calls the API: its invocation (the output format checked first), then a client,
 * then `run` with the command's arguments.
 */
export function apiAction<O extends OutputOptions, A extends unknown[] = []>(
  command: Command,
  run: (call: ApiInvocation<O>, ...args: A) => Promise<void>,
): Command {
  return writeAction<O, undefined, A>(
    command,
    () => undefined,
    (call, _prepared, ...args) => run(call, ...args),
  );
}

/**
 * Sets the action of a write whose request is worked out from the options first: `prepare` (its body, checked) runs
 * after the output format and before the client, so its usage errors come before a missing key or any request; `run`
 * gets what it made, then the command's arguments.
 */
export function writeAction<O extends OutputOptions, P, A extends unknown[] = []>(
  command: Command,
  prepare: (options: O, command: Command) => P,
  run: (call: ApiInvocation<O>, prepared: P, ...args: A) => Promise<void>,
): Command {
  return command.action(async (...received: unknown[]) => {
    const call = invocation<O>(command);
    const prepared = prepare(call.options, command);
    const { client } = openSession(globalOptions(command), call.io);
    // Commander passes the command's arguments (as its argument parsers made them), then its options and itself.
    await run({ ...call, client }, prepared, ...(received.slice(0, -2) as A));
  });
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

/** A word for a POSIX shell, single-quoted when it needs to be, so a command the CLI suggests can be pasted as is. */
export function shellWord(value: string): string {
  return /^[\w./~@%+=:,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Wraps help text at `width` columns, with `indent` before every line. */
export function wrap(words: readonly string[], indent: string, width = 86): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    if (line.length > indent.length && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent;
    }
    line += line.length > indent.length ? ` ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** Words separated by commas, for {@link wrap}: `a,` `b,` `c`, each comma kept on its word. */
export const commaSeparated = (words: readonly string[]): string[] =>
  words.map((word, i) => (i < words.length - 1 ? `${word},` : word));

/**
 * The change types, for a command's help: a heading naming the option that takes them, then the contract's list,
 * wrapped and indented; `more` continues the list's sentence (`; or * for every type.`), `note` is a sentence after.
 */
export function changeTypesHelp(option: string, more: string, note = ''): string {
  const words = (text: string) => text.split(' ').filter(Boolean);
  const list = wrap(words(`${CHANGE_TYPES.join(', ')}${more}`), '  ');
  return `Change types (${option}):\n${list}${note ? `\n${wrap(words(note), '  ')}` : ''}`;
}
