import type { Item, ItemsExportEnd } from '@coinventory/contract';
import { CoinventoryError } from './errors.js';

/**
 * An export being read: iterate it once for every Item, in order, as the lines arrive (memory stays flat whatever the
 * size). Once the iteration has finished, `nextCursor` is the changes cursor of the export's snapshot: follow
 * `client.changes` from it and you get every change made since, and none already in the export.
 *
 * An answer that ends short of its `Content-Length`, or without its last line, was cut short (the connection dropped,
 * or the server stopped): the iteration then throws instead of ending as if the export were complete.
 */
export class ItemsExport implements AsyncIterable<Item> {
  readonly #open: () => Promise<Response>;
  #end: ItemsExportEnd | undefined;
  #started = false;

  /** @internal `open` sends the request; it is sent when the iteration starts. */
  constructor(open: () => Promise<Response>) {
    this.#open = open;
  }

  /** The changes cursor at the export's snapshot; set once every item has been read. */
  get nextCursor(): string | undefined {
    return this.#end?.nextCursor;
  }

  /** How many items the export held; set once every item has been read. */
  get count(): number | undefined {
    return this.#end?.count;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    if (this.#started) {
      throw new CoinventoryError('An export is read once: call client.items.export() again to read it again.');
    }
    this.#started = true;
    const response = await this.#open();
    if (!response.body) throw new CoinventoryError('The export answered without a body.');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let items = 0;
    let end: ItemsExportEnd | undefined;
    try {
      for (;;) {
        const { done, value } = await reader.read().catch((error: unknown) => {
          // The connection ended before the answer's Content-Length (fetch says "terminated"): cut short, unless the
          // caller aborted it.
          if (error instanceof Error && error.name === 'AbortError') throw error;
          throw cutShort(`the connection ended part-way: ${error instanceof Error ? error.message : String(error)}`);
        });
        buffer += decoder.decode(value, { stream: !done });
        let newline = buffer.indexOf('\n');
        while (newline !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
          if (end !== undefined) throw cutShort('a line followed its end line');
          const parsed = JSON.parse(line) as Item | ItemsExportEnd;
          if ('nextCursor' in parsed && !('id' in parsed)) end = parsed;
          else {
            items += 1;
            yield parsed as Item;
          }
        }
        if (done) break;
      }
    } finally {
      // Stopping early (a break, a throw) closes the connection, and the server ends the export's query.
      await reader.cancel().catch(() => {});
    }
    if (end === undefined || buffer !== '') throw cutShort('the answer ended before its last line');
    if (end.count !== items) throw cutShort(`it held ${items} items where its end line counts ${end.count}`);
    this.#end = end;
  }
}

function cutShort(detail: string): CoinventoryError {
  return new CoinventoryError(`The export was cut short (${detail}): read it again with client.items.export().`);
}
