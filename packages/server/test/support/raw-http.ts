import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { ERRORS, type ErrorCode } from '@coinventory/contract';
import pino, { type Logger } from 'pino';
import { beforeEach, expect } from 'vitest';
import { ERROR_BODY } from './errors.js';
import { serverWithOrganization } from './server.js';

/** A response read off the wire as bytes, so a malformed request's answer is seen exactly as a client sees it. */
export interface RawResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** `text` as JSON, or undefined when it is not JSON. */
  body: unknown;
}

/** Parses one HTTP/1.1 response (the first on the connection); throws when the bytes are not one. */
export function parseResponse(bytes: Buffer): RawResponse {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response head in ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
  if (!status?.[1]) throw new Error(`bad status line ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let rest = bytes.subarray(end + 4);
  if (headers['content-length'] !== undefined) rest = rest.subarray(0, Number(headers['content-length']));
  const text = rest.toString('utf8');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(status[1]), headers, text, body };
}

/**
 * Writes `parts` to a fresh connection (waiting `pauseMs` between them, so a request can reach the app before its
 * next bytes arrive) and collects everything the server sends until it closes the connection.
 */
export async function exchange(
  port: number,
  parts: Array<Buffer | string>,
  { pauseMs = 0, timeoutMs = 5_000 } = {},
): Promise<RawResponse> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no close within ${timeoutMs} ms; received ${JSON.stringify(Buffer.concat(chunks).toString())}`),
      );
    }, timeoutMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    // A reset after the answer was sent (the server closed with unread bytes) still leaves the answer to read.
    socket.on('error', () => {});
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    for (const [index, part] of parts.entries()) {
      if (index > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (socket.destroyed || !socket.writable) break;
      socket.write(part);
    }
    await closed;
  } finally {
    socket.destroy();
  }
  return parseResponse(Buffer.concat(chunks));
}

/** A request head with CRLF line ends; `Connection: close` unless the caller says otherwise. */
export function head(requestLine: string, headers: Array<[string, string]>): string {
  const all = headers.some(([name]) => name.toLowerCase() === 'connection')
    ? headers
    : [...headers, ['Connection', 'close']];
  return `${requestLine}\r\n${all.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`;
}

export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** pino's level for `warn`: a client's failure worth noting. */
export const WARN_LEVEL = 40;
/** pino's level for `error`: anything at or above it is a failure of the server. */
export const ERROR_LEVEL = 50;

export interface LogCapture {
  /** Logs at debug level into `lines`. */
  logger: Logger;
  lines: LogLine[];
  /** The lines logged since the current test began. */
  current(): LogLine[];
  /** The error-level lines among them. */
  errors(): LogLine[];
  /** Waits for a line with this message since the test began (the app may still be at work on a closed request). */
  waitFor(msg: string, timeoutMs?: number): Promise<LogLine>;
}

/** A logger whose lines a test file can read back; call at the top of the file (it registers a beforeEach). */
export function capturingLogger(): LogCapture {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  let mark = 0;
  beforeEach(() => {
    mark = lines.length;
  });
  const current = () => lines.slice(mark);
  return {
    logger: pino({ level: 'debug' }, destination),
    lines,
    current,
    errors: () => current().filter((line) => line.level >= ERROR_LEVEL),
    async waitFor(msg, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = current().find((entry) => entry.msg === msg);
        if (line) return line;
        if (Date.now() > deadline) throw new Error(`no "${msg}" logged; got ${JSON.stringify(current())}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

const JSON_TYPE = /^application\/json(;|$)/;

/** The contract's error for `code`: its status, JSON, and a body of `code`, `message` and at most `issues`. */
export function expectErrorResponse(response: RawResponse, code: ErrorCode): void {
  expect(response.status, response.text).toBe(ERRORS[code].status);
  expect(response.headers['content-type']).toMatch(JSON_TYPE);
  expect(response.body).toMatchObject(ERROR_BODY[code]);
  const keys = Object.keys(response.body as object).sort();
  expect(keys).toEqual(keys.includes('issues') ? ['code', 'issues', 'message'] : ['code', 'message']);
}

/** Whether the response says it depends on the request's Host header. */
export const variesOnHost = (response: RawResponse): boolean =>
  (response.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .includes('host');

/**
 * The server a raw-bytes suite talks to, with an organization, for the calling file: its log captured, a rate limit no
 * suite reaches, and the port to connect to.
 */
export function rawHttpServer() {
  const capture = capturingLogger();
  const suite = serverWithOrganization({ logger: capture.logger, policy: { maxRequests: 100_000, windowSeconds: 60 } });
  return {
    capture,
    get server() {
      return suite.server;
    },
    get organization() {
      return suite.organization;
    },
    get port() {
      return Number(new URL(suite.server.origin).port);
    },
  };
}
