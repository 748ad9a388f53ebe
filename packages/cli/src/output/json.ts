/**
 * JSON output: the API's objects exactly as received, indented by two spaces.
 *
 * A list is the API's list body, even with `--all`: `{ "items": [...], "page", "limit", "hasMore" }` for one page,
 * `{ "items": [...], "hasMore": false }` for every page, `{ "items": [...] }` for a list the API does not page. The
 * opening and each item are written as their page arrives, the rest at the end; the bytes are those of
 * `JSON.stringify(body, null, 2)` plus a newline, so `jq` and friends read it as one document.
 */

export function jsonDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes a list body `{ "items": [...], ...rest }` piece by piece: the items first, the other keys at the end. */
export class JsonListWriter {
  #count = 0;

  /** The opening of the object and of its `items` array. */
  start(): string {
    return '{\n  "items": [';
  }

  /** The text for the next items. */
  items(items: readonly unknown[]): string {
    let out = '';
    for (const item of items) {
      out += this.#count === 0 ? '\n' : ',\n';
      out += indent(JSON.stringify(item, null, 2), '    ');
      this.#count += 1;
    }
    return out;
  }

  /** The end of the array, the keys after it (`page`, `limit`, `hasMore`), and the end of the object. */
  end(rest: Readonly<Record<string, unknown>>): string {
    const tail = Object.entries(rest)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `,\n  ${JSON.stringify(key)}: ${indent(JSON.stringify(value, null, 2), '  ').trimStart()}`)
      .join('');
    return `${this.#count === 0 ? ']' : '\n  ]'}${tail}\n}\n`;
  }
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');
}
