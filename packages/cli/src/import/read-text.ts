import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { CliError, EXIT, errorMessage } from '../errors.js';

// A file read as UTF-8 text, in chunks (a large file is never held whole), hashed as it is read.

/** Bytes per read: large enough that a 100 MB file is a few thousand reads. */
const CHUNK_BYTES = 256 * 1024;

const BOM = '\uFEFF';

/**
 * The file's text, chunk by chunk, without a leading byte order mark; `hash` (when given) is fed every byte. Bytes
 * that are not UTF-8 stop the reading with a clear error rather than turning into U+FFFD, which would change the data.
 */
export async function* readText(path: string, hash?: Hash): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let first = true;
  let offset = 0;
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash?.update(chunk);
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw notUtf8(path, offset);
      }
      offset += chunk.length;
      if (first && text) {
        first = false;
        if (text.startsWith(BOM)) text = text.slice(1);
      }
      if (text) yield text;
    }
    let rest: string;
    try {
      rest = decoder.decode();
    } catch {
      throw notUtf8(path, offset);
    }
    if (rest) yield rest;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot read ${path}: ${errorMessage(error)}`);
  } finally {
    stream.destroy();
  }
}

function notUtf8(path: string, offset: number): CliError {
  return new CliError(
    `${path} is not UTF-8 text (invalid bytes after byte ${offset}): save it as UTF-8 (in Excel: "CSV UTF-8") and try again.`,
    EXIT.USAGE,
  );
}

/** A new SHA-256 of a file's bytes, hex. */
export function sha256(): Hash {
  return createHash('sha256');
}
