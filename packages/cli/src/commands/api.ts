import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { APIError, type APIResponse, NOT_MODIFIED, type RawQuery } from '@coinventory/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CliError, EXIT, errorMessage, isErrno, UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { repeatable } from '../options.js';
import { jsonDocument } from '../output/json.js';
import { globalOptions, ioFor, openSession } from '../session.js';
import { examples, shellWord } from './shared.js';

// `coinventory api`: any request, authenticated and retried as every command's are, its answer printed as it came.
// For what no command wraps yet, and for seeing the API's own bodies (as `gh api` and `stripe get` do).

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

interface ApiOptions {
  data?: string;
  query?: Array<readonly [string, string]>;
  header?: Array<readonly [string, string]>;
  include?: boolean;
  idempotencyKey?: string;
}

function method(value: string): Method {
  const upper = value.toUpperCase();
  const found = METHODS.find((candidate) => candidate === upper);
  if (!found) throw new InvalidArgumentError(`Use one of ${METHODS.join(', ')}.`);
  return found;
}

/** `key=value`: the value may hold `=` and may be empty. */
function queryParameter(entry: string): readonly [string, string] {
  const at = entry.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`Expected key=value, got '${entry}'.`);
  return [entry.slice(0, at), entry.slice(at + 1)];
}

/** `Name: value`, as curl takes it. */
function header(entry: string): readonly [string, string] {
  const at = entry.indexOf(':');
  const name = at > 0 ? entry.slice(0, at).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new InvalidArgumentError(`Expected 'Name: value', got '${entry}'.`);
  }
  return [name, entry.slice(at + 1).trim()];
}

/**
 * The path relative to the base URL. Taken with or without its leading `/`; one that repeats the base URL's own path
 * (`/v1/items` when the base URL ends in `/v1`) or is the whole URL has that part dropped, so a path copied from the
 * reference or a log works as is. A URL of another server is refused: the key is never sent there.
 */
export function apiPath(given: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  let path = given;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    const url = new URL(path);
    if (url.origin !== base.origin) {
      throw new UsageError(
        `'${given}' is not on the API's server (${base.origin}): give a path such as /items, relative to the base URL ${baseUrl}.`,
        'api',
      );
    }
    path = url.pathname + url.search;
  }
  if (!path.startsWith('/')) path = `/${path}`;
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`) || path.startsWith(`${basePath}?`))) {
    path = path.slice(basePath.length) || '/';
  }
  return path;
}

/** The request body: JSON text, `@file` or `@-` (stdin), checked to be JSON before anything is sent. */
function readBody(data: string): unknown {
  let text = data;
  if (data.startsWith('@')) {
    const file = data.slice(1);
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      const what = file === '-' ? 'stdin' : `'${file}'`;
      if (isErrno(error, 'ENOENT')) throw new CliError(`--data: no file ${what}.`, EXIT.USAGE);
      throw new CliError(`--data: could not read ${what}: ${errorMessage(error)}`);
    }
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`--data is not valid JSON: ${errorMessage(error)}`, 'api');
  }
}

/** `HTTP 200 OK` and the headers, as `curl -i` shows them. */
function statusAndHeaders(status: number, headers: Headers): string {
  const lines = [`HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`);
  });
  return `${lines.join('\n')}\n\n`;
}

function bodyText(body: unknown): string {
  if (body === NOT_MODIFIED || body === undefined || body === '') return '';
  if (typeof body === 'string') return body.endsWith('\n') ? body : `${body}\n`;
  return jsonDocument(body);
}

async function printAnswer(io: IO, answer: APIResponse<unknown>, include: boolean): Promise<void> {
  if (include) await io.out.write(statusAndHeaders(answer.response.status, answer.response.headers));
  await io.out.write(bodyText(answer.data));
}

export function registerApi(program: Command): void {
  const api = program
    .command('api')
    .description('send any request to the API with your key and print the answer (JSON as the API sent it)')
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`, method)
    .argument('<path>', 'path relative to the base URL, e.g. /items or /items/<id>/valuations (may hold ?key=value)')
    .addOption(new Option('-d, --data <json>', 'request body: JSON text, @file to read a file, @- to read stdin'))
    .addOption(new Option('--query <key=value>', 'query parameter (repeatable)').argParser(repeatable(queryParameter)))
    .addOption(
      new Option('-H, --header <header>', "extra request header, 'Name: value' (repeatable)").argParser(
        repeatable(header),
      ),
    )
    .option('-i, --include', 'print the status line and response headers before the body')
    .option(
      '--idempotency-key <key>',
      'the Idempotency-Key of a write (default: a new one per command, kept across its retries)',
    )
    .addHelpText(
      'after',
      `
Writes (POST, PUT, PATCH, DELETE) carry an Idempotency-Key, so the retries after a 429, a
5xx or a lost connection apply them at most once. The answer's body goes to stdout: JSON
indented, anything else (an export's CSV) as it came; nothing for a 304. An error answer
is reported on stderr with the same exit codes as every command (run 'coinventory --help');
with --include its status, headers and body are printed on stdout first.`,
    )
    .action(async (verb: Method, path: string, options: ApiOptions, command: Command) => {
      const io = ioFor(command);
      if (options.data !== undefined && verb === 'GET') {
        throw new UsageError('GET takes no body: give its parameters with --query key=value.', 'api');
      }
      const body = options.data === undefined ? undefined : readBody(options.data);
      const session = openSession(globalOptions(command), io);
      const query: Record<string, string[]> = {};
      for (const [key, value] of options.query ?? []) query[key] = [...(query[key] ?? []), value];
      try {
        const answer = await session.client
          .rawRequest(verb, apiPath(path, session.baseUrl), {
            query: query as RawQuery,
            body,
            headers: Object.fromEntries(options.header ?? []),
            idempotencyKey: options.idempotencyKey,
          })
          .withResponse();
        await printAnswer(io, answer, options.include === true);
      } catch (error) {
        if (options.include && error instanceof APIError) {
          await io.out.write(statusAndHeaders(error.status, error.headers));
          await io.out.write(bodyText(error.body));
        }
        throw error;
      }
    });
  examples(api, [
    'coinventory api GET /items --query status=in_stock --query limit=5',
    'coinventory api GET /items/<id>/valuations --include',
    `coinventory api POST /items --data ${shellWord('{"sku":"MOR-1921","title":"1921 Morgan Dollar"}')}`,
    'coinventory api PATCH /items/<id> --data @changes.json',
    "coinventory api GET /exports/items -H 'Accept: text/csv' > items.csv",
  ]);
}
