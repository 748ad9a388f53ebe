import { once } from 'node:events';

/** COPY text format: backslash, tab, newline and carriage return are escaped; NULL is \N. */
const SPECIAL = /[\\\t\n\r]/;
/** @type {Record<string, string>} */
const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * One field in COPY text form.
 * @param {string | number | boolean | null | undefined} value
 */
export function t(value) {
  if (value === null || value === undefined) return '\\N';
  const s = String(value);
  return SPECIAL.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : s;
}

/** One COPY … FROM STDIN on its own connection, written in large chunks with backpressure. */
export class CopyWriter {
  /**
   * @param {import('postgres').Sql} sql
   * @param {string} table
   * @param {readonly string[]} columns
   * @param {{ freeze: boolean }} options
   */
  constructor(sql, table, columns, options) {
    this.sql = sql;
    this.table = table;
    this.columns = columns;
    this.options = options;
    this.buffer = '';
    this.rows = 0;
    /** @type {import('postgres').ReservedSql | null} */
    this.connection = null;
    /** @type {import('node:stream').Writable | null} */
    this.stream = null;
  }

  async open() {
    const connection = await this.sql.reserve();
    this.connection = connection;
    await connection`BEGIN`;
    // FREEZE needs the table created or truncated in this transaction; the bulk tables are empty before the load.
    if (this.options.freeze) await connection`TRUNCATE ${connection(this.table)}`;
    const freeze = this.options.freeze ? connection`WITH (FREEZE)` : connection``;
    this.stream =
      await connection`COPY ${connection(this.table)} (${connection([...this.columns])}) FROM STDIN ${freeze}`.writable();
  }

  /**
   * Adds one row (fields already in COPY text form); resolves when the chunk was accepted.
   * @param {string} line  tab-separated fields without the newline
   * @returns {Promise<void> | undefined}  a promise only when the caller must wait (backpressure)
   */
  push(line) {
    this.buffer += `${line}\n`;
    this.rows += 1;
    if (this.buffer.length < 1 << 18) return undefined;
    return this.flush();
  }

  /**
   * Adds rows in order, waiting whenever the stream asks to.
   * @param {readonly string[]} lines
   */
  async pushAll(lines) {
    for (const line of lines) {
      const wait = this.push(line);
      if (wait) await wait;
    }
  }

  async flush() {
    const stream = this.stream;
    if (!stream) throw new Error(`COPY ${this.table} is not open`);
    const chunk = this.buffer;
    this.buffer = '';
    if (chunk.length > 0 && !stream.write(chunk)) await once(stream, 'drain');
  }

  async close() {
    await this.flush();
    const stream = this.stream;
    const connection = this.connection;
    if (!stream || !connection) throw new Error(`COPY ${this.table} is not open`);
    stream.end();
    await once(stream, 'finish');
    await connection`COMMIT`;
    connection.release();
  }
}

/**
 * Inserts a small table in one COPY.
 * @param {import('postgres').Sql} sql
 * @param {string} table
 * @param {readonly string[]} columns
 * @param {readonly string[]} lines
 */
export async function copyLines(sql, table, columns, lines) {
  if (lines.length === 0) return;
  const writer = new CopyWriter(sql, table, columns, { freeze: false });
  await writer.open();
  await writer.pushAll(lines);
  await writer.close();
}
