import { request } from 'node:http';
import { expect } from 'vitest';

/** A plain fetch wrapper for tests: what the wire carries, nothing hidden. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: tests that expect JSON will fail on `body`, with `text` to show why.
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A client bound to one server and key. */
export function client(baseUrl: string, key: string | null) {
  const request =
    (method: string) =>
    <T = unknown>(path: string, options: Omit<RequestOptions, 'key'> = {}) =>
      call<T>(baseUrl, method, path, { ...options, key });
  return { get: request('GET'), post: request('POST'), patch: request('PATCH'), delete: request('DELETE') };
}

/** Shows the body on failure: a bare status mismatch says nothing. */
export function expectStatus(response: ApiResponse, status: number): void {
  expect(response.status, `${response.status} ${response.text}`).toBe(status);
}

/** An answer read with node:http, its headers as Node gives them. */
export interface NodeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * GET /v1/me on `origin` from the loopback address `from` (127.0.0.1, 127.0.0.2, …), on a connection of its own, with
 * `key` as a bearer key when given: what limits by address see as separate callers.
 */
export function meFrom(origin: string, from: string, key: string | null): Promise<NodeAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}/v1/me`,
      { localAddress: from, headers: key === null ? {} : { authorization: `Bearer ${key}` }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
