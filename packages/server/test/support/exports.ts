import { request } from 'node:http';
import { type Item, ItemSchema, type ItemsExportEnd, ItemsExportEndSchema } from '@coinventory/contract';

/** What an export answered, read as a stream: the body is handed to `onChunk` as it arrives (and kept only if asked). */
export interface ExportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, when `keep` was set. */
  body: string;
  bytes: number;
  /** Whether the answer ended as HTTP says it should (false: the connection was cut). */
  complete: boolean;
}

export interface ExportOptions {
  accept?: string;
  /** More request headers (If-None-Match, …). */
  headers?: Record<string, string>;
  keep?: boolean;
  /** Called with each chunk; a returned promise pauses reading until it settles. */
  onChunk?: (chunk: Buffer) => undefined | Promise<unknown>;
  /** Aborts the request (the connection is closed). */
  signal?: AbortSignal;
}

/** GET /exports/items over node:http, which (unlike fetch) lets the reader pause part-way. */
export function requestExport(baseUrl: string, key: string, query = '', options: ExportOptions = {}) {
  return new Promise<ExportResponse>((resolve, reject) => {
    const req = request(`${baseUrl}/exports/items${query}`, {
      headers: {
        authorization: `Bearer ${key}`,
        ...(options.accept !== undefined && { accept: options.accept }),
        ...options.headers,
      },
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (options.keep !== false) chunks.push(chunk);
        const waiting = options.onChunk?.(chunk);
        if (waiting) {
          res.pause();
          waiting.then(() => res.resume(), reject);
        }
      });
      const finish = (complete: boolean) =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          bytes,
          complete,
        });
      res.on('end', () => finish(true));
      res.on('aborted', () => finish(false));
      res.on('error', () => finish(false));
    });
    req.end();
  });
}

/** An NDJSON export's lines: its items and its end line (null when the answer was cut short). */
export function parseNdjson(body: string): { items: Item[]; end: ItemsExportEnd | null } {
  const lines = body.split('\n');
  if (lines.at(-1) !== '') return { items: lines.map((line) => ItemSchema.parse(JSON.parse(line))), end: null };
  lines.pop();
  const last = lines.pop();
  const end = last === undefined ? null : ItemsExportEndSchema.parse(JSON.parse(last));
  return { items: lines.map((line) => ItemSchema.parse(JSON.parse(line))), end };
}

/** HEAD /exports/items: the status and headers a GET would have, without the body. */
export function requestHead(baseUrl: string, key: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request(`${baseUrl}/exports/items`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.end();
  });
}
