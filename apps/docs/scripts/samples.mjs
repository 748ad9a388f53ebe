// The request samples of an operation's page: the same request three ways — curl, the SDK and the CLI — built from
// the product itself, never restated by hand:
// - the request: the operation's own examples in the OpenAPI document (path, chosen query parameters, body);
// - the SDK call: the contract route's key (`items.list` is `client.items.list(…)`), its arguments in the SDK's order
//   (path id, body, then query parameters as one object);
// - the CLI command: the command of that route in the CLI's own help (`coinventory items list`), each value given with
//   the option its help lists; a route with no command of its own is sent with `coinventory api METHOD PATH`.
// Every sample runs in the docs' tests (test/samples.test.ts), with the environment the README names.

/** The address samples are written with; the samples test puts the live server's in its place. */
export const WRITTEN_BASE_URL = 'http://localhost:3000/v1';

/** Longest line a sample is written with, so that it fits its pane at 1280 pixels without scrolling sideways. */
export const SAMPLE_WIDTH = 80;

/** Query parameters a sample sends: the required ones, and these when the operation has them. */
const SAMPLE_QUERY = new Set(['q', 'status', 'sort', 'limit']);

/**
 * Values a sample sends instead of the document's example, where the example names what a fresh demo organization
 * already has: the example's SKU is one of its items, so creating it again would be refused with 409.
 */
const BODY_OVERRIDES = { createItem: { sku: 'MOR-1921-D-63-2' } };

/** Fields whose value is a changes cursor: samples take it from `CHANGES_CURSOR`, as a cursor must be a live one. */
const CURSOR_FIELDS = new Set(['after']);
export const CURSOR_ENV = 'CHANGES_CURSOR';

/** CLI command groups named otherwise than the SDK's resource. */
const CLI_GROUPS = { webhookEndpoints: 'webhooks' };

/** A value a sample reads from the environment rather than writing out: an id of something that exists. */
const env = (name) => ({ env: name });
const isEnv = (value) => typeof value === 'object' && value !== null && typeof value.env === 'string';

const singular = (word) => word.replace(/ies$/, 'y').replace(/s$/, '');
const kebab = (name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const camel = (name) => name.toLowerCase().replace(/[_-]([a-z])/g, (_, letter) => letter.toUpperCase());

/** `ITEM_ID` for `/items/{id}`: the environment variable naming an existing object of the path's collection. */
export function pathEnvName(path, parameter) {
  const segments = path.split('/');
  const collection = segments[segments.indexOf(`{${parameter}}`) - 1] ?? parameter;
  return `${singular(collection).replace(/-/g, '_').toUpperCase()}_${parameter.toUpperCase()}`;
}

/** The request every sample of the operation sends: method, path (with env references), query and body. */
export function sampleRequest(operation) {
  const path = [];
  for (const part of operation.path.split(/(\{\w+\})/)) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) path.push(env(pathEnvName(operation.path, name)));
    else if (part) path.push(part);
  }
  const query = operation.parameters
    .filter((parameter) => parameter.in === 'query' && (parameter.required || SAMPLE_QUERY.has(parameter.name)))
    .filter((parameter) => parameter.example !== undefined)
    .map((parameter) => ({
      name: parameter.name,
      value: CURSOR_FIELDS.has(parameter.name) ? env(CURSOR_ENV) : parameter.example,
    }));
  const example = operation.requestBody?.content['application/json']?.example;
  let body;
  if (example !== undefined) {
    body = { ...example, ...(BODY_OVERRIDES[operation.operationId] ?? {}) };
    for (const field of Object.keys(body)) if (CURSOR_FIELDS.has(field)) body[field] = env(CURSOR_ENV);
  }
  return { method: operation.method, path, query, body };
}

/** The environment variables a request reads. */
export function requestEnv(request) {
  const names = new Set();
  const visit = (value) => {
    if (isEnv(value)) names.add(value.env);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(request.path);
  visit(request.query.map((entry) => entry.value));
  visit(request.body);
  return [...names];
}

// --- Formatting -------------------------------------------------------------------------------------------------

/** A word for bash: bare when it is safe, else single-quoted; an env reference in double quotes. */
function shellWord(value) {
  if (isEnv(value)) return `"$${value.env}"`;
  const text = String(value);
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A double-quoted shell string of parts, env references expanded: `"/items/$ITEM_ID"`. */
const shellString = (parts) =>
  `"${parts.map((part) => (isEnv(part) ? `$${part.env}` : String(part).replace(/(["$`\\])/g, '\\$1'))).join('')}"`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A value as source text, in JSON (`json`) or TypeScript (`ts`) style: on one line when it fits in `width`, else one
 * entry a line, indented by two spaces a level. `leaf` writes an env reference.
 */
function literal(value, { style, indent = '', width = SAMPLE_WIDTH, used = 0, leaf }) {
  const scalar = (v) => {
    if (isEnv(v)) return leaf(v);
    if (typeof v === 'string')
      return style === 'ts' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(v);
    return JSON.stringify(v);
  };
  const key = (k) => (style === 'ts' && IDENTIFIER.test(k) ? k : JSON.stringify(k));
  const inline = (v) => {
    if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
    if (v && typeof v === 'object' && !isEnv(v)) {
      const entries = Object.entries(v).map(([k, inner]) => `${key(k)}: ${inline(inner)}`);
      if (entries.length === 0) return '{}';
      return style === 'ts' ? `{ ${entries.join(', ')} }` : `{${entries.join(', ')}}`;
    }
    return scalar(v);
  };
  const one = inline(value);
  if (used + one.length <= width || value === null || typeof value !== 'object' || isEnv(value)) return one;
  const inner = `${indent}  `;
  const comma = style === 'ts' ? ',' : '';
  if (Array.isArray(value)) {
    const items = value.map((v, i) => {
      const text = literal(v, { style, indent: inner, width, used: inner.length, leaf });
      return `${inner}${text}${i < value.length - 1 ? ',' : comma}`;
    });
    return `[\n${items.join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  const lines = entries.map(([k, v], i) => {
    const head = `${inner}${key(k)}: `;
    const text = literal(v, { style, indent: inner, width, used: head.length, leaf });
    return `${head}${text}${i < entries.length - 1 ? ',' : comma}`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** Words joined by spaces, wrapped with ` \` continuations so no line is wider than `SAMPLE_WIDTH`. */
function wrapWords(first, words) {
  const lines = [first];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (`${last} ${word} \\`.length <= SAMPLE_WIDTH || last.trim() === '') lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`  ${word}`);
  }
  return lines.join(' \\\n');
}

// --- curl -------------------------------------------------------------------------------------------------------

/** The request as curl: query parameters with `-G` and one `-d` each, a JSON body laid out to be read. */
export function curlSample(request) {
  const url = shellString([WRITTEN_BASE_URL, ...request.path]);
  const get = request.method === 'GET';
  const command = `curl -sS${get ? '' : ` -X ${request.method}`}${get && request.query.length ? ' -G' : ''}`;
  // The URL cannot be split: when it does not fit beside the command, it gets a line of its own.
  const lines = `${command} ${url} \\`.length <= SAMPLE_WIDTH ? [`${command} ${url}`] : [command, `  ${url}`];
  lines.push(`  -H "Authorization: Bearer $COINVENTORY_API_KEY"`);
  for (const { name, value } of request.query) {
    const plain = isEnv(value) || /^[\w.,:-]*$/.test(String(value));
    lines.push(
      `  ${plain ? '-d' : '--data-urlencode'} ${isEnv(value) ? `"${name}=$${value.env}"` : shellWord(`${name}=${value}`)}`,
    );
  }
  if (request.body !== undefined) {
    lines.push(`  -H "Content-Type: application/json"`);
    if (requestEnv({ path: [], query: [], body: request.body }).length > 0) {
      // A body naming an environment variable is written in double quotes, so that the shell expands it.
      const marker = (name) => `@@${name}@@`;
      const text = literal(request.body, { style: 'json', width: 1_000, leaf: (v) => marker(v.env) })
        .replace(/(["$`\\])/g, '\\$1')
        .replace(/@@(\w+)@@/g, '\\"$$$1\\"');
      lines.push(`  -d "${text}"`);
    } else {
      const text = literal(request.body, { style: 'json', indent: '  ', used: 6, leaf: () => '' });
      lines.push(`  -d '${text.replace(/'/g, `'\\''`)}'`);
    }
  }
  return lines.join(' \\\n');
}

// --- SDK --------------------------------------------------------------------------------------------------------

/**
 * The request as an SDK call: `client.<route key>(path ids…, body?, query?)`, the SDK's order of arguments. Values from
 * the environment are read first, and checked, into variables named after them (`ITEM_ID` is `itemId`).
 */
export function sdkSample(request, { routeKey, responseName, streamed }) {
  const names = requestEnv(request);
  const lines = [`import { Coinventory } from '@coinventory/sdk';`, ''];
  lines.push('const client = new Coinventory(); // key and base URL from the environment');
  for (const name of names) {
    lines.push(`const ${camel(name)} = process.env.${name};`);
    lines.push(`if (!${camel(name)}) throw new Error('Set ${name}');`);
  }
  const leaf = (value) => camel(value.env);
  const oneLine = (value) => literal(value, { style: 'ts', width: Number.POSITIVE_INFINITY, leaf });
  const args = request.path.filter(isEnv).map(leaf);
  if (request.body !== undefined) args.push(request.body);
  if (request.method === 'GET' && request.query.length)
    args.push(Object.fromEntries(request.query.map(({ name, value }) => [name, value])));
  const text = (arg) => (typeof arg === 'string' ? arg : oneLine(arg));
  const variable = streamed ? 'exported' : responseName;
  const head = `const ${variable} = ${streamed ? '' : 'await '}client.${routeKey}(`;
  const last = args[args.length - 1];
  const before = `${head}${args
    .slice(0, -1)
    .map((arg) => `${text(arg)}, `)
    .join('')}`;
  if (`${head}${args.map(text).join(', ')});`.length <= SAMPLE_WIDTH) {
    lines.push(`${head}${args.map(text).join(', ')});`);
  } else if (typeof last === 'object' && `${before}{`.length <= SAMPLE_WIDTH) {
    // As Prettier writes it: the last argument, an object, laid out over lines after the others.
    lines.push(`${before}${literal(last, { style: 'ts', used: SAMPLE_WIDTH, leaf })});`);
  } else {
    // Else one argument a line.
    const each = args.map((arg) =>
      typeof arg === 'string' ? arg : literal(arg, { style: 'ts', indent: '  ', used: 2, leaf }),
    );
    lines.push(`${head}\n${each.map((arg) => `  ${arg},`).join('\n')}\n);`);
  }
  if (streamed) {
    const entry = singular(routeKey.split('.')[0] ?? 'entry');
    lines.push(`for await (const ${entry} of exported) console.log(${entry});`);
  } else lines.push(`console.log(${variable});`);
  return lines.join('\n');
}

// --- CLI --------------------------------------------------------------------------------------------------------

/** A command's long options from its help (`--status`), with the one-letter alias of each (`-q` of `--query`). */
function helpOptions(help) {
  const section = help.slice(help.indexOf('\nOptions:'), help.indexOf('\nGlobal Options:') + 1 || undefined);
  const options = new Map();
  for (const match of section.matchAll(/^ {2}(?:-(\w), )?--([a-z][a-z0-9-]*)/gm))
    options.set(match[2], match[1] ?? null);
  return options;
}

/** The options giving `field` the value `value`, by the help's own names, or undefined when it has none. */
function cliOption(field, value, options) {
  const name = kebab(field);
  if (value === null) {
    if (options.has(`clear-${name}`)) return [`--clear-${name}`];
    return options.has('clear') ? ['--clear', name] : undefined;
  }
  if (value === true) {
    const flag = [name, name.replace(/d$/, '')].find((candidate) => options.has(candidate));
    return flag ? [`--${flag}`] : undefined;
  }
  const candidates = [name, name.replace(/-in-cents$/, '-cents')];
  if (field.length === 1) candidates.push(...[...options].filter(([, short]) => short === field).map(([long]) => long));
  if (typeof value === 'object' && !Array.isArray(value) && !isEnv(value)) candidates.unshift(`${name}-json`);
  const flag = candidates.find((candidate) => options.has(candidate));
  if (!flag) return undefined;
  let text;
  if (isEnv(value)) text = value;
  else if (Array.isArray(value)) text = value.join(',');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return [`--${flag}`, shellWord(text)];
}

/** The CLI's command for a route key (`webhookEndpoints.rotateSecret` is `webhooks rotate-secret`), if it has one. */
export function cliCommandOf(routeKey, commands) {
  const path = [
    'coinventory',
    ...routeKey.split('.').map((part, i) => (i === 0 ? (CLI_GROUPS[part] ?? kebab(part)) : kebab(part))),
  ];
  return commands.find((command) => command.path.join(' ') === path.join(' '));
}

/**
 * The request as a `coinventory` command: the route's own command, its path id as the argument and every value as
 * the option its help names (`--yes` too where the command asks for confirmation). Without a command, or when its
 * help has no option for a value: `coinventory api METHOD PATH [--query k=v …] [--data JSON]`.
 */
export function cliSample(request, { routeKey, commands }) {
  const command = cliCommandOf(routeKey, commands);
  if (command) {
    const options = helpOptions(command.help);
    const usage = /^Usage: .*$/m.exec(command.help)?.[0] ?? '';
    const ids = request.path.filter(isEnv);
    const words = [];
    let fits = ids.length <= (usage.match(/<[^>]+>/g) ?? []).length;
    for (const id of ids) words.push(shellWord(id));
    const values = [...request.query.map(({ name, value }) => [name, value]), ...Object.entries(request.body ?? {})];
    for (const [field, value] of values) {
      const option = cliOption(field, value, options);
      if (!option) fits = false;
      else words.push(option.join(' '));
    }
    if (options.has('yes')) words.push('--yes');
    if (fits) return wrapWords(command.path.join(' '), words);
  }
  const words = [request.method, shellString(request.path)];
  if (request.path.every((part) => !isEnv(part))) words[1] = request.path.join('');
  for (const { name, value } of request.query)
    words.push(`--query ${isEnv(value) ? `"${name}=$${value.env}"` : shellWord(`${name}=${value}`)}`);
  let text = wrapWords('coinventory api', words);
  if (request.body !== undefined) {
    const json = literal(request.body, { style: 'json', indent: '  ', used: 9, leaf: () => '' });
    text += ` \\\n  --data '${json.replace(/'/g, `'\\''`)}'`;
  }
  return text;
}

/**
 * The three samples of an operation: `[{ client, label, lang, code }]`, curl, SDK and CLI in that order. `context`
 * gives the operation's contract route key and the CLI's commands (`commandTree`).
 */
export function requestSamples(operation, { routeKey, commands, responseName, streamed }) {
  const request = sampleRequest(operation);
  return [
    { client: 'curl', label: 'curl', lang: 'bash', code: curlSample(request) },
    {
      client: 'sdk',
      label: 'SDK (TypeScript)',
      lang: 'ts',
      code: sdkSample(request, { routeKey, responseName, streamed }),
    },
    { client: 'cli', label: 'CLI', lang: 'bash', code: cliSample(request, { routeKey, commands }) },
  ];
}
