import { resolve } from 'node:path';
import type { z } from 'zod';
import type { Sql } from '../db/types.js';
import { ProvisioningError } from '../errors.js';
import { findCommand, type OperatorCommand, unknownCommandLine } from './names.js';
import { inputProblems, readArguments } from './parse.js';
import { type CommandOutput, EXIT, usageLine } from './spec.js';

export { findCommand, isOperatorCommand, type OperatorCommand } from './names.js';

export function commandHelp(command: OperatorCommand): string {
  const aliases = Object.entries(command.aliases ?? {}).map(
    ([old, current]) => `  ${`--${old}`.padEnd(10)}  Deprecated: the former name of --${current}, still accepted.`,
  );
  return [
    `Usage: coinventory-server ${command.name} ${command.synopsis} [--json]`.replace(/ +/g, ' '),
    '',
    command.summary,
    '',
    ...(command.details ? [command.details(), ''] : []),
    'Example:',
    `  ${command.example}`,
    '',
    'Options:',
    '  --json      Print the result as JSON.',
    '  -h, --help  Show this help.',
    ...aliases,
  ].join('\n');
}

const ok = (stdout: string): CommandOutput => ({ exitCode: EXIT.ok, stdout, stderr: '' });
const fail = (exitCode: number, stderr: string): CommandOutput => ({ exitCode, stdout: '', stderr });
const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

export type PreparedCommand =
  /** Nothing to run: help, or a usage error. */
  | { kind: 'done'; output: CommandOutput }
  /** `argv` is the command as another process must receive it: a file argument made an absolute path. */
  | { kind: 'run'; name: string; argv: string[]; run(sql: Sql): Promise<CommandOutput> };

/** Parses and validates an operator command's arguments, before any database is opened. */
export function prepareOperatorCommand(argv: readonly string[]): PreparedCommand {
  const done = (output: CommandOutput): PreparedCommand => ({ kind: 'done', output });
  const usage = (lines: string[]) => done(fail(EXIT.usage, `${lines.join('\n')}\n`));
  const found = findCommand(argv);
  if (!found) return usage([unknownCommandLine(argv)]);
  const { command, args } = found;
  const read = readArguments(command, args);
  if ('problems' in read) return usage(read.problems);
  if (read.help) return done(ok(`${commandHelp(command)}\n`));
  const { values: given, positionals, json } = read;
  const sent = [...argv];
  const help = `(see "coinventory-server ${command.name} --help")`;
  if ('file' in command && command.file) {
    if (positionals.length === 0) {
      return usage([usageLine(`${command.name} needs the file to read`, `for example: ${command.example}`)]);
    }
    if (positionals.length > 1) {
      return usage([
        usageLine(`unexpected argument "${positionals[1]}" for ${command.name}`, `it reads one file ${help}`),
      ]);
    }
    const file = resolve(positionals[0] as string);
    given.file = file;
    if (read.firstPositionalAt !== undefined) sent[argv.length - args.length + read.firstPositionalAt] = file;
  } else if (positionals.length > 0) {
    return usage([
      usageLine(`unexpected argument "${positionals[0]}" for ${command.name}`, `it takes only options ${help}`),
    ]);
  }
  const parsed = (command.input as z.ZodType<unknown, z.ZodTypeDef, unknown>).safeParse(given);
  if (!parsed.success) return usage(inputProblems(command, given, parsed.error));
  return {
    kind: 'run',
    name: command.name,
    argv: sent,
    run: async (sql) => {
      try {
        const result: unknown = await (command.run as (sql: Sql, input: unknown) => Promise<unknown>)(sql, parsed.data);
        if (json) return ok(`${JSON.stringify(result, null, 2)}\n`);
        return ok(line((command.text as (result: unknown) => string)(result)));
      } catch (error) {
        if (error instanceof ProvisioningError) {
          const code = { not_found: EXIT.notFound, conflict: EXIT.conflict, refused: EXIT.refused }[error.kind];
          return fail(code, line(error.message));
        }
        throw error;
      }
    },
  };
}

/** Parses, validates and runs one operator command. The operator's mistakes become output, never exceptions. */
export async function executeOperatorCommand(argv: readonly string[], sql: Sql): Promise<CommandOutput> {
  const prepared = prepareOperatorCommand(argv);
  return prepared.kind === 'done' ? prepared.output : prepared.run(sql);
}
