import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { csvRecord, csvRow, ITEM_CSV_COLUMNS, valueAt } from '@coinventory/contract/csv';
import { ITEMS, Random } from '@coinventory/server/demo-data';
import { CATEGORY_NAMES } from './data.mjs';
import { coinRows, ITEM_COLUMNS } from './seed/coin.mjs';
import { DAY_MS } from './seed/context.mjs';

/**
 * Bulk work through the API, as a client does it: coins for a batch body or an import file (from the seeder's own
 * generator), an export read to its end without keeping it, and a batch sent as the SDK sends it.
 */

/**
 * A coin as the API shows it, with only what a write sets (ids of the workspace and what the server keeps left out).
 * @typedef {Record<string, unknown>} WritableItem
 */

/** Columns the seeder fills with its own workspace's ids: a new item gets the workspace's defaults instead. */
const WORKSPACE_IDS = new Set(['category_id', 'warehouse_id', 'zone_id', 'consignment_id']);
/** The integer columns of a write (the others are text, a date-time or the attributes' JSON). */
const INTEGERS = new Set(['quantity_available', 'value_in_cents', 'acquisition_price_in_cents']);
/** The items table's columns a write sets, as the server declares them: column, API path, body field. */
const WRITABLE = ITEM_COLUMNS.flatMap((column) => {
  const spec = /** @type {{ field?: string, body?: string, type: { kind: string } }} */ (ITEMS.columns[column]);
  return spec.body && spec.field && !WORKSPACE_IDS.has(column)
    ? [{ column, field: spec.field, body: spec.body, json: spec.type.kind === 'json' }]
    : [];
});

/** @param {string} text  a field in COPY text form */
const fromCopyText = (text) =>
  text.replace(/\\([\\tnr])/g, (_, c) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));

/**
 * Coins numbered `from` to `from + count - 1`, drawn by the seeder's generator (seed/coin.mjs) from `seed`: the same
 * types, grades, certificates, attributes and values as the benchmark's data set, and SKUs made of the coin's number,
 * so coins of different numbers never share one.
 * @param {{ seed: number, from: number, count: number, now?: number }} spec
 * @returns {WritableItem[]}
 */
export function coins({ seed, from, count, now = Date.now() }) {
  const random = new Random(seed);
  const nil = '00000000-0000-4000-8000-000000000000';
  const place = { id: nil, warehouseId: nil, zones: [nil, nil, nil], categories: CATEGORY_NAMES.map(() => nil) };
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const createdMs = now - random.int(1, 400) * DAY_MS;
    const { item } = coinRows(random, {
      slug: 'bulk',
      place: { ...place, consignments: [] },
      id: nil,
      n,
      createdMs,
      now,
    });
    const fields = item.split('\t');
    /** @type {WritableItem} */
    const coin = {};
    for (const { column, field, json } of WRITABLE) {
      const text = /** @type {string} */ (fields[ITEM_COLUMNS.indexOf(column)]);
      const value = text === '\\N' ? null : json ? JSON.parse(fromCopyText(text)) : fromCopyText(text);
      setPath(coin, field, INTEGERS.has(column) && value !== null ? Number(value) : value);
    }
    return coin;
  });
}

/**
 * @param {Record<string, unknown>} target
 * @param {string} path  dotted
 * @param {unknown} value
 */
function setPath(target, path, value) {
  const keys = path.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) {
    at[key] ??= {};
    at = /** @type {Record<string, unknown>} */ (at[key]);
  }
  at[/** @type {string} */ (keys[keys.length - 1])] = value;
}

/**
 * The body `POST /items` (and a batch entry) takes for a coin: each field the coin has, by the server's own
 * column-to-body map; empty fields are left out.
 * @param {WritableItem} coin
 */
export function bodyOf(coin) {
  /** @type {Record<string, unknown>} */
  const body = {};
  for (const { field, body: name } of WRITABLE) {
    const value = valueAt(coin, field);
    if (value !== null && value !== undefined) body[name] = value;
  }
  return body;
}

/**
 * An import file: the header of `coinventory items list --output csv` (the contract's item columns) and one record
 * per coin, written by the contract's own CSV encoder; the columns no write sets stay empty.
 * @param {WritableItem[]} items
 */
export function itemsCsv(items) {
  return csvRecord(ITEM_CSV_COLUMNS) + items.map((item) => csvRow(ITEM_CSV_COLUMNS, item)).join('');
}

/**
 * Samples a process's resident memory every `everyMs` until stopped.
 * @param {() => number} rssBytes
 * @param {number} everyMs
 */
export function sampleRss(rssBytes, everyMs) {
  const baseline = rssBytes();
  let peak = baseline;
  let samples = 1;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes());
    samples += 1;
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      const end = rssBytes();
      return { baseline, peak: Math.max(peak, end), end, samples: samples + 1 };
    },
  };
}

/**
 * @typedef {object} ExportRead
 * @property {number} status
 * @property {number} ms            from sending the request to the end of the body
 * @property {number} firstByteMs   from sending the request to the response's first bytes (status and headers,
 *   which the server sends once it has read the whole snapshot into its temporary file)
 * @property {number} bytes         of the body
 * @property {number} lines         LF-terminated lines of the body (a CSV record ends in CRLF)
 * @property {string} lastLine      the body's last line (NDJSON: the end line)
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {boolean} complete     the body ended normally (a cut-short export ends in an error)
 * @property {'complete' | 'cut' | 'left'} ended   normally; cut short by the server (the connection closed before
 *   the end: short of Content-Length, no end line); or the reader left (a slow reader, after `leaveAfterMs`)
 */

/**
 * Reads `GET /v1/exports/items` to its end, counting bytes and lines and keeping only the last line. A slow reader
 * takes `bytesPerSecond` on average (pausing the socket while it is ahead) and leaves after `leaveAfterMs`.
 * @param {string} origin
 * @param {string} key
 * @param {'ndjson' | 'csv'} format
 * @param {{ bytesPerSecond?: number, leaveAfterMs?: number }} [slow]
 * @returns {Promise<ExportRead>}
 */
export function readExport(origin, key, format, slow = {}) {
  const accept = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      `${origin}/v1/exports/items`,
      { headers: { authorization: `Bearer ${key}`, accept }, agent: false },
      (res) => {
        const firstByteMs = performance.now() - started;
        let bytes = 0;
        let lines = 0;
        /** @type {Buffer} the bytes after the last LF seen */
        let carry = Buffer.alloc(0);
        /** @type {Buffer} */
        let lastLine = Buffer.alloc(0);
        /** @type {NodeJS.Timeout | undefined} */
        let slicer;
        /** @type {NodeJS.Timeout | undefined} */
        let leaver;
        let done = false;
        const finish = (/** @type {'complete' | 'cut' | 'left'} */ ended) => {
          if (done) return;
          done = true;
          clearInterval(slicer);
          clearTimeout(leaver);
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            firstByteMs,
            bytes,
            lines,
            lastLine: (carry.length > 0 ? carry : lastLine).toString('utf8').replace(/\r$/, ''),
            headers: res.headers,
            complete: ended === 'complete',
            ended,
          });
        };
        // A slow reader: the socket paused whenever more than bytesPerSecond × the time since the response came
        // has been taken, resumed (checked every 20 ms) once the reader is back under it.
        const rate = slow.bytesPerSecond ?? 0;
        const ahead = () => rate > 0 && bytes > (rate * (performance.now() - started - firstByteMs)) / 1000;
        if (rate > 0) {
          slicer = setInterval(() => {
            if (res.isPaused() && !ahead()) res.resume();
          }, 20);
        }
        if (slow.leaveAfterMs) {
          leaver = setTimeout(() => {
            res.destroy();
            finish('left');
          }, slow.leaveAfterMs);
        }
        res.on('data', (/** @type {Buffer} */ chunk) => {
          bytes += chunk.length;
          if (ahead()) res.pause();
          let last = -1;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) {
            lines += 1;
            last = at;
          }
          if (last === -1) {
            carry = Buffer.concat([carry, chunk]);
            return;
          }
          const before = chunk.lastIndexOf(10, last - 1);
          lastLine = Buffer.from(
            before === -1 ? Buffer.concat([carry, chunk.subarray(0, last)]) : chunk.subarray(before + 1, last),
          );
          carry = Buffer.from(chunk.subarray(last + 1));
        });
        res.on('end', () => finish(res.complete ? 'complete' : 'cut'));
        res.on('error', () => finish('cut'));
        res.on('aborted', () => finish('cut'));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** @typedef {{ status: number, ms: number, created: number, updated: number, failed: number }} BatchAnswer */

/**
 * A client sending batches over one keep-alive connection, each with a new Idempotency-Key as the SDK sends every
 * write.
 * @param {string} origin
 * @param {string} key
 */
export function batchClient(origin, key) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    /**
     * @param {'create' | 'upsert'} mode
     * @param {Array<Record<string, unknown>>} items
     * @returns {Promise<BatchAnswer>}
     */
    send: (mode, items) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ mode, items });
        const started = performance.now();
        const req = httpRequest(
          `${origin}/v1/items/batch`,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
              'idempotency-key': randomUUID(),
            },
          },
          (res) => {
            /** @type {Buffer[]} */
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () => {
              const ms = performance.now() - started;
              const status = res.statusCode ?? 0;
              if (status !== 200) return resolve({ status, ms, created: 0, updated: 0, failed: items.length });
              const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              resolve({ status, ms, created: answer.created, updated: answer.updated, failed: answer.failed });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
