import type { ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import type { Sql } from '../db/types.js';

/**
 * The operator's commands for what an organization's settings area does: organizations, people and keys. They run
 * the same way against DATABASE_URL, an idle embedded database, or a running server's embedded database
 * (through its operator socket); see entry/main.ts.
 */

/** Exit codes of every command, documented in the README and the help. */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, conflict: 4, refused: 5 } as const;

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
  options: Options;
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
