import { readFile, rename, writeFile } from 'node:fs/promises';
import { LIMITS } from '@coinventory/contract/constants';
import { CliError, EXIT, errorMessage, isErrno } from '../errors.js';
import { text } from '../options.js';

// `--cursor-file`: a changes cursor kept in a file between runs (`changes`, and `items export`, which writes one).

/** The cursor a `--cursor-file` holds; undefined when the file does not exist or is empty (start from the oldest). */
export async function readCursorFile(path: string): Promise<string | undefined> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new CliError(`Cannot read the cursor file ${path}: ${errorMessage(error)}`);
  }
  const cursor = content.trim();
  if (!cursor) return undefined;
  try {
    return text(LIMITS.cursor)(cursor);
  } catch (error) {
    throw new CliError(`${path} does not hold a changes cursor: ${errorMessage(error)}`, EXIT.USAGE);
  }
}

/** Replaces the file's content in one step (a temporary file renamed over it): a crash never leaves half a cursor. */
export async function writeCursorFile(path: string, cursor: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${cursor}\n`);
    await rename(temporary, path);
  } catch (error) {
    throw new CliError(`Cannot write the cursor file ${path}: ${errorMessage(error)}`);
  }
}
