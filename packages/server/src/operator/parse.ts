import { parseArgs } from 'node:util';
import type { z } from 'zod';
import type { OperatorCommand } from './names.js';
import { usageLine } from './spec.js';
import { closest, listed } from './suggest.js';

/**
 * An operator command's arguments read against its spec. Every mistake becomes one line, `<what went wrong>; <what
 * to do>`, rather than node:util's parseArgs text (which tells a shell user to put `--` before a mistyped option).
 */

const helpHint = (command: OperatorCommand) => `see "coinventory-server ${command.name} --help"`;

/** `--org <id|slug>`: the option with its placeholder from the synopsis, for a message that says what to give. */
export function optionWithValue(command: OperatorCommand, name: string): string {
  const placeholder = new RegExp(`--${name} (<[^>]*>[^\\s\\])]*)`).exec(command.synopsis)?.[1];
  return `--${name} ${placeholder ?? '<value>'}`;
}

/** A value as a message quotes it: in double quotes, cut short when long. */
const quoted = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);

export interface ReadArguments {
  /** The options given, under their current names (an alias's value moved to its option). */
  values: Record<string, unknown>;
  positionals: string[];
  /** Where the first positional is in `args` (a file argument, made absolute for the socket). */
  firstPositionalAt: number | undefined;
  help: boolean;
  json: boolean;
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'] & {};

/** The options a command reads: its own, their former names, `--json` and `--help`. */
function optionsOf(command: OperatorCommand): Options {
  const aliases = Object.fromEntries(
    Object.entries(command.aliases ?? {}).map(([old, current]) => [old, command.options[current] ?? {}]),
  ) as Options;
  return { ...command.options, ...aliases, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** What is wrong with one option as given (unknown, a flag with a value, a value missing), or undefined. */
function optionProblem(
  command: OperatorCommand,
  options: Options,
  token: Token & { kind: 'option' },
): string | undefined {
  const option = options[token.name];
  if (!option) {
    const near = closest(token.name, Object.keys(options)).map((name) => `--${current(command, name)}`);
    const fix = near.length > 0 ? `did you mean ${listed(near)}?` : helpHint(command);
    return usageLine(`unknown option ${token.rawName} for ${command.name}`, fix);
  }
  if (option.type === 'boolean') {
    return token.value === undefined
      ? undefined
      : usageLine(`${token.rawName} takes no value (got ${quoted(token.value)})`, `give ${token.rawName} alone`);
  }
  const given = optionWithValue(command, current(command, token.name));
  if (token.value === undefined) return usageLine(`${token.rawName} needs a value`, `give it as ${given}`);
  // `--org --json`: parseArgs would take the next option for the value.
  if (!token.inlineValue && /^-./.test(token.value)) {
    return usageLine(
      `${token.rawName} needs a value, and ${quoted(token.value)} follows it`,
      `give it as ${given} (a value that starts with "-" as ${token.rawName}=<value>)`,
    );
  }
  return undefined;
}

/** Reads the arguments after a command's name: the options and positionals, or the lines saying what is wrong. */
export function readArguments(command: OperatorCommand, args: string[]): ReadArguments | { problems: string[] } {
  const options = optionsOf(command);
  const { values, positionals, tokens } = parseArgs({
    args,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  if (values.help === true) return { values: {}, positionals, firstPositionalAt: undefined, help: true, json: false };
  const problems = tokens.flatMap((token) => {
    const problem = token.kind === 'option' ? optionProblem(command, options, token) : undefined;
    return problem ? [problem] : [];
  });
  for (const [old, now] of Object.entries(command.aliases ?? {})) {
    if (values[old] === undefined) continue;
    if (values[now] !== undefined)
      problems.push(usageLine(`--${old} is the former name of --${now}`, `give only --${now}`));
    values[now] ??= values[old];
    delete values[old];
  }
  if (problems.length > 0) return { problems };
  const { json, help: _help, ...given } = values;
  const firstPositionalAt = tokens.find((token) => token.kind === 'positional')?.index;
  return { values: given, positionals, firstPositionalAt, help: false, json: json === true };
}

const current = (command: OperatorCommand, name: string) => command.aliases?.[name] ?? name;

/** The lines for what the command's input schema refused: missing options in one line, each bad value in its own. */
export function inputProblems(command: OperatorCommand, given: Record<string, unknown>, error: z.ZodError): string[] {
  const missing: string[] = [];
  const problems: string[] = [];
  for (const issue of error.issues) {
    const [name] = issue.path;
    if (name === undefined) {
      // A rule about several options (valuate's --item or --all): its message says what is wrong and what to do.
      problems.push(`coinventory-server: ${command.name} ${issue.message}`);
      continue;
    }
    const key = String(name);
    const value = given[key];
    if (value === undefined && issue.code === 'invalid_type') {
      missing.push(optionWithValue(command, key));
      continue;
    }
    const label = key === 'file' && command.file ? 'file' : `--${key}`;
    const shown = typeof value === 'string' ? ` ${quoted(value)}` : '';
    problems.push(usageLine(`invalid ${label}${shown}`, issue.message));
  }
  if (missing.length > 0) {
    problems.unshift(usageLine(`${command.name} needs ${listed(missing, 'and')}`, `for example: ${command.example}`));
  }
  return problems;
}
