import type { Coinventory } from '@coinventory/sdk';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { printObject } from '../output/render.js';
import { confirm } from '../prompt.js';
import { addOutputOptions, apiAction, commandPath, type OutputOptions } from './shared.js';

// The `delete` commands (`items delete`, `webhooks delete`): the same question, the same `--yes`, the same output.

interface DeleteOptions extends OutputOptions {
  yes?: boolean;
}

/** What a `delete` command asks and does, once it has a client and the object its argument names. */
export interface Deletion {
  /** The `[y/N]` question, naming what would go. */
  question: string;
  /** Deletes it, answering the API's result. */
  remove(): Promise<{ id: string }>;
  /** The line printed once it is deleted (without --json), given the deleted id. */
  deleted(id: string): string;
}

/** `-y, --yes`: what a command that deletes takes to skip its question. */
function addYesOption(command: Command): Command {
  return command.option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)');
}

/** A deletion without `--yes` needs a terminal to ask on: checked before any request. */
function checkConfirmable(yes: boolean | undefined, io: IO, command: Command): void {
  if (!yes && !io.stdinIsTTY) {
    throw new UsageError(
      'Refusing to delete without confirmation: pass --yes when stdin is not a terminal.',
      commandPath(command),
    );
  }
}

/** Whether to delete: `--yes`, or `[y/N]` answered yes; a no says so and makes the exit code 1. */
async function confirmDeletion(yes: boolean | undefined, question: string, io: IO): Promise<boolean> {
  if (yes || (await confirm(question))) return true;
  io.notice('Not deleted.');
  process.exitCode = 1;
  return false;
}

/**
 * Makes `command` (its argument declared) a deletion: `-y, --yes` and the table or JSON output, and an action that
 * checks it can ask before any request, looks up what it would delete (`prepare`), asks unless `--yes`, deletes, and
 * prints `Deleted …` or the API's answer as JSON.
 */
export function deleteCommand<A>(
  command: Command,
  prepare: (argument: A, client: Coinventory) => Promise<Deletion>,
): Command {
  addYesOption(command);
  addOutputOptions(command, ['table', 'json']);
  return apiAction<DeleteOptions, [A]>(command, async ({ options, format, io, client }, argument) => {
    checkConfirmable(options.yes, io, command);
    const deletion = await prepare(argument, client);
    if (!(await confirmDeletion(options.yes, deletion.question, io))) return;
    const result = await deletion.remove();
    if (format === 'json') await printObject(io, format, result, { details: () => '' });
    else await io.out.write(`${deletion.deleted(result.id)}\n`);
  });
}
