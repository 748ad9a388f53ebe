import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import type { Sql } from '../db/types.js';
import { ProvisioningError } from '../errors.js';
import { COMMANDS } from './commands/index.js';
import { type CommandOutput, EXIT } from './spec.js';

export type OperatorCommand = (typeof COMMANDS)[number];

/** The command an argv names (one or two words), and the arguments after them. */
export function findCommand(argv: readonly string[]): { command: OperatorCommand; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, args: argv.slice(words) };
  }
  return null;
}

export const isOperatorCommand = (argv: readonly string[]) => findCommand(argv) !== null;

export function commandHelp(command: OperatorCommand): string {
  return [
    `Usage: coinventory-server ${command.name} ${command.synopsis} [--json]`.replace(/ +/g, ' '),
    '',
    command.summary,
    '',
    'Example:',
    `  ${command.example}`,
    '',
    'Options:',
    '  --json      Print the result as JSON.',
    '  -h, --help  Show this help.',
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
  const found = findCommand(argv);
  if (!found) return done(fail(EXIT.usage, `Unknown command "${argv.join(' ')}".\n`));
  const { command, args } = found;
  let values: Record<string, unknown>;
  let positionals: string[];
  let tokens: ReturnType<typeof parseArgs>['tokens'];
  try {
    ({ values, positionals, tokens } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return done(
      fail(EXIT.usage, `${error instanceof Error ? error.message : String(error)}\n\n${commandHelp(command)}\n`),
    );
  }
  if (values.help) return done(ok(`${commandHelp(command)}\n`));
  const sent = [...argv];
  const { json, help: _help, ...given } = values;
  if ('file' in command && command.file) {
    if (positionals.length !== 1) {
      const problem = positionals.length === 0 ? 'Give the file to read' : `Unexpected argument "${positionals[1]}"`;
      return done(fail(EXIT.usage, `${problem}.\n\n${commandHelp(command)}\n`));
    }
    const file = resolve(positionals[0] as string);
    given.file = file;
    const at = tokens?.find((token) => token.kind === 'positional')?.index;
    if (at !== undefined) sent[argv.length - args.length + at] = file;
  } else if (positionals.length > 0) {
    return done(fail(EXIT.usage, `Unexpected argument "${positionals[0]}".\n\n${commandHelp(command)}\n`));
  }
  const parsed = (command.input as z.ZodType<unknown, z.ZodTypeDef, unknown>).safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  --${String(issue.path[0] ?? '')}: ${issue.message}`);
    return done(fail(EXIT.usage, `Invalid options:\n${problems.join('\n')}\n\n${commandHelp(command)}\n`));
  }
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
