import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { sleep } from './util.mjs';

/**
 * The capture run: one request per scenario to a server whose every statement PostgreSQL logs (log_statement=all,
 * CSV), so the floor replays exactly the SQL the server sends, parameters included; and the response's bytes,
 * which the HTTP floor sends back.
 */

/**
 * @typedef {object} Statement
 * @property {string} sql           as sent, with $n placeholders
 * @property {Array<string | null>} params
 */

/**
 * @typedef {object} CapturedResponse
 * @property {number} status
 * @property {string[]} headers     raw, name and value alternating
 * @property {Buffer} body
 */

/**
 * @typedef {object} Capture
 * @property {Statement[]} statements
 * @property {CapturedResponse} response
 */

/**
 * Statements the server sends that are not the request's own: postgres.js reads the array types once per
 * connection, and key use is recorded after the response, at most once a minute per key.
 */
const NOT_THE_REQUEST = [/pg_catalog\.pg_type/, /^\s*UPDATE api_keys SET last_used_at/];

/**
 * Splits PostgreSQL's CSV log into records (quoted fields may hold commas, doubled quotes and newlines).
 * @param {string} text
 * @returns {string[][]}
 */
export function parseCsv(text) {
  /** @type {string[][]} */
  const records = [];
  /** @type {string[]} */
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  return records;
}

/**
 * The parameters in a log line's detail: `parameters: $1 = '…', $2 = NULL`.
 * @param {string} detail
 * @returns {Array<string | null>}
 */
function parseParameters(detail) {
  /** @type {Array<string | null>} */
  const params = [];
  const pattern = /\$(\d+) = (NULL|'((?:[^']|'')*)')/g;
  for (let match = pattern.exec(detail); match; match = pattern.exec(detail)) {
    params[Number(match[1]) - 1] = match[2] === 'NULL' ? null : (match[3] ?? '').replaceAll("''", "'");
  }
  return params;
}

// PostgreSQL's CSV log columns (version 13 to 16): message is the 14th, detail the 15th, application_name the 23rd.
const MESSAGE = 13;
const DETAIL = 14;
const APPLICATION = 22;

/**
 * The statements logged between two offsets of the CSV log, by the server's connections.
 * @param {string} file
 * @param {number} from
 * @returns {Statement[]}
 */
function statementsSince(file, from) {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  /** @type {Statement[]} */
  const statements = [];
  for (const record of parseCsv(buffer.toString('utf8'))) {
    if (record[APPLICATION] !== 'coinventory-server') continue;
    const message = record[MESSAGE] ?? '';
    const match = /^(?:execute [^:]+|statement): ([\s\S]*)$/.exec(message);
    if (!match?.[1]) continue;
    const sql = match[1];
    if (NOT_THE_REQUEST.some((pattern) => pattern.test(sql))) continue;
    statements.push({ sql, params: parseParameters(record[DETAIL] ?? '') });
  }
  return statements;
}

/**
 * One HTTP request, keeping the response's raw headers and body bytes.
 * @param {string} origin
 * @param {import('./scenarios.mjs').Request} request
 * @param {string} key
 * @returns {Promise<CapturedResponse>}
 */
export function send(origin, request, key) {
  return new Promise((resolve, reject) => {
    /** @type {Record<string, string>} */
    const headers = { authorization: `Bearer ${key}` };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(request.body));
    }
    const req = httpRequest(`${origin}${request.path}`, { method: request.method, headers }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * Sends one request and returns the SQL it caused (the log is read once it stops growing).
 * @param {{ origin: string, csvLog: string }} where
 * @param {import('./scenarios.mjs').Request} request
 * @param {string} key
 * @returns {Promise<Capture>}
 */
export async function capture(where, request, key) {
  const from = statSync(where.csvLog).size;
  const response = await send(where.origin, request, key);
  if (response.status < 200 || response.status > 299) {
    throw new Error(`capture: ${request.method} ${request.path} answered ${response.status}: ${response.body}`);
  }
  // The logging collector writes asynchronously: wait until the file has been still for a moment.
  let size = statSync(where.csvLog).size;
  for (let quiet = 0; quiet < 3; ) {
    await sleep(100);
    const now = statSync(where.csvLog).size;
    quiet = now === size ? quiet + 1 : 0;
    size = now;
  }
  return { statements: statementsSince(where.csvLog, from), response };
}
