import type { ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import type { Sql } from '../db/types.js';

/**
 * The operator's commands for what an organization's settings area does: organizations, people and keys. They run
 * the same way against DATABASE_URL, an idle embedded database, or a running server's embedded database
 * (through its operator socket); see entry/main.ts.
 */

/** Exit codes of the binary, every command's and `start`'s: EXIT_CODES says what each means. */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, conflict: 4, refused: 5, unavailable: 6 } as const;

/** What each exit code means, in the order of the codes: the help prints it, the docs' table says the same. */
export const EXIT_CODES: ReadonlyArray<readonly [number, string]> = [
  [EXIT.ok, 'done'],
  [EXIT.failure, 'an unexpected failure (printed with its stack trace); a port that cannot be listened on'],
  [EXIT.usage, 'usage: an unknown command or option, a missing or bad value; invalid configuration'],
  [EXIT.notFound, 'not found: no organization, user, member, key… by that name or id'],
  [EXIT.conflict, 'already exists: a taken slug or email, a user who is already a member'],
  [EXIT.refused, 'refused by a rule: a key created by a member, a plan without API access…'],
  [
    EXIT.unavailable,
    'database unavailable: PostgreSQL unreachable or refusing the login, the database or role missing, no ' +
      'permission, migrations not applied; the embedded data directory in use or not writable',
  ],
];

/** A line of an expected failure, as the binary prints every one: `coinventory-server: <what went wrong>; <what to do>`. */
export const usageLine = (problem: string, fix: string) => `coinventory-server: ${problem}; ${fix}`;

export interface CommandOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandSpec<Input, Result> {
  /** One or two words, e.g. `key create`. */
  name: string;
  summary: string;
  /** The options line of the usage text. */
  synopsis: string;
  example: string;
  /** More of the help, after the summary: what the command reads (an import's columns and its sample file). */
  details?: () => string;
  options: Options;
  /**
   * Former names of options, still accepted (`creator: 'user'`): the help lists them as deprecated, and a value given
   * under one reaches the command under the new name.
   */
  aliases?: Readonly<Record<string, string>>;
  /**
   * The command reads a file named by one positional argument (`import sales FILE`). It reaches the input as `file`,
   * an absolute path: through the operator socket the server reads it, from another working directory.
   */
  file?: true;
  input: z.ZodType<Input, z.ZodTypeDef, unknown>;
  run(sql: Sql, input: Input): Promise<Result>;
  text(result: Result): string;
}

/** Declares a command, its input and result types inferred from its parts. */
export const spec = <Input, Result>(command: CommandSpec<Input, Result>) => command;
