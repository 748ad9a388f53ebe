/**
 * JSON output: the API's objects exactly as received, indented by two spaces.
 *
 * A list is one JSON array, even with `--all`: `[` is written first, each item as its page arrives, `]` at the end.
 * The bytes are those of `JSON.stringify(items, null, 2)` plus a newline, so `jq` and friends read it as one document.
 */

export function jsonDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes a JSON array piece by piece. */
export class JsonArrayWriter {
  #count = 0;

  /** The opening bracket. */
  start(): string {
    return '[';
  }

  /** The text for the next items. */
  items(items: readonly unknown[]): string {
    let out = '';
    for (const item of items) {
      out += this.#count === 0 ? '\n' : ',\n';
      out += indent(JSON.stringify(item, null, 2));
      this.#count += 1;
    }
    return out;
  }

  /** The closing bracket and newline. */
  end(): string {
    return this.#count === 0 ? ']\n' : '\n]\n';
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
