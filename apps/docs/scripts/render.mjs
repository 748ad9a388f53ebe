// Markdown for the generated reference pages. Pure functions of the OpenAPI document and of help texts, shared by
// the generator, the site's config (its sidebar) and the tests.

import { ERRORS } from '@coinventory/contract/constants';
import { CURSOR_ENV, requestEnv, requestSamples, sampleRequest } from './samples.mjs';

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** Text for a Markdown table cell: one line, pipes escaped, raw `<` kept out of HTML, lists as line breaks. */
function cell(text) {
  return String(text ?? '')
    .replace(/\n- /g, '<br>• ')
    .replace(/\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/<(?!br>)/g, '&lt;');
}

/** Prose outside tables: raw `<` escaped outside code spans, so VitePress (Vue) never reads it as a tag. */
function prose(text) {
  return String(text ?? '')
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/</g, '&lt;')))
    .join('');
}

const json = (value) => JSON.stringify(value, null, 2);

/** Every operation of the document, grouped by its tag in the document's tag order. */
export function operationsByTag(document) {
  const operations = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const method of METHOD_ORDER) {
      const operation = methods[method];
      if (operation) operations.push({ ...operation, method: method.toUpperCase(), path });
    }
  }
  return document.tags.map((tag) => ({
    tag: tag.name,
    description: tag.description,
    operations: operations.filter((operation) => operation.tags.includes(tag.name)),
  }));
}

export const operationLink = (operationId) => `/reference/api/${operationId}`;

const refName = (ref) => ref.replace('#/components/schemas/', '').replace('#/components/responses/', '');

function resolve(document, schema) {
  return schema?.$ref ? document.components.schemas[refName(schema.$ref)] : schema;
}

/** A readable type: `string (uuid)`, `integer ≥ 0`, `one of \`a\`, \`b\``, `Item`, `array of Item`, `… or null`. */
function typeOf(document, schema) {
  if (!schema) return 'any';
  if (schema.$ref) return `[${refName(schema.$ref)}](/reference/api/schemas#${refName(schema.$ref).toLowerCase()})`;
  if (schema.anyOf) {
    const variants = schema.anyOf.filter((variant) => variant.type !== 'null').map((v) => typeOf(document, v));
    const nullable = schema.anyOf.some((variant) => variant.type === 'null');
    return `${variants.join(' or ')}${nullable ? ' or null' : ''}`;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const nullable = types.includes('null');
  const main = types.filter((type) => type !== 'null');
  let text;
  if (schema.enum) text = `one of ${schema.enum.map((value) => `\`${value}\``).join(', ')}`;
  else if (schema.const !== undefined) text = `\`${JSON.stringify(schema.const)}\``;
  else if (main[0] === 'array') text = `array of ${typeOf(document, schema.items)}`;
  else if (main[0] === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    text = 'object (map)';
  else text = main.join(' or ') || 'any';
  if (schema.format) text += ` (${schema.format})`;
  const bounds = [];
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    bounds.push(`${schema.minLength ?? 0} to ${schema.maxLength} chars`);
  if (schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < 1e9)
    bounds.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maxItems !== undefined) bounds.push(`at most ${schema.maxItems}`);
  if (bounds.length) text += `, ${bounds.join(', ')}`;
  if (schema.default !== undefined) text += `, default \`${schema.default}\``;
  return nullable ? `${text} or null` : text;
}

/** Rows (`field`, type, required, description) of an object schema, nested objects flattened to dotted names. */
function fieldRows(document, schema, prefix = '') {
  const object = resolve(document, schema);
  const rows = [];
  const required = new Set(object?.required ?? []);
  for (const [name, property] of Object.entries(object?.properties ?? {})) {
    const field = `${prefix}${name}`;
    rows.push({
      field,
      type: typeOf(document, property),
      required: required.has(name),
      description: property.description,
    });
    // Inline objects (not components, which have their own section) are shown field by field.
    const inner = property.anyOf?.find((variant) => variant.type === 'object') ?? property;
    if (!inner.$ref && inner.type === 'object' && inner.properties)
      rows.push(...fieldRows(document, inner, `${field}.`));
    if (inner.type === 'array' && inner.items?.type === 'object' && inner.items.properties)
      rows.push(...fieldRows(document, inner.items, `${field}[].`));
  }
  return rows;
}

/**
 * A two-column table of named things (parameters, fields, headers), so that it fits a page without scrolling sideways:
 * the first cell holds the name, its type and a flag (`required`, `optional`, `always sent`…) on lines of their own;
 * the second the description and the example. Wrapped in `<div class="api-fields">` for the theme's layout.
 */
function namedTable(heading, rows) {
  const lines = rows.map(({ name, type, flag, description, example }) => {
    const meta = [];
    if (type) meta.push(`<span class="api-type">${cell(type)}</span>`);
    if (flag) meta.push(`<span class="api-flag api-flag-${flag.replace(/ /g, '-')}">${flag}</span>`);
    const shown = example === undefined ? '' : `<span class="api-example">Example: \`${cell(example)}\`</span>`;
    return `| \`${name}\`${meta.map((text) => ` ${text}`).join('')} | ${cell(description)}${shown} |`;
  });
  return `<div class="api-fields">\n\n| ${heading} | Description |\n|---|---|\n${lines.join('\n')}\n\n</div>\n`;
}

/** The first cell of a named table's row, as the page writes it: what the reference test looks for. */
export function namedCell(name, flag) {
  return flag ? `<span class="api-flag api-flag-${flag.replace(/ /g, '-')}">${flag}</span>` : `| \`${name}\` `;
}

function fieldTable(document, schema, { showRequired }) {
  const rows = fieldRows(document, schema);
  if (rows.length === 0) return '_No fields._\n';
  return namedTable(
    'Field',
    rows.map((row) => ({
      name: row.field,
      type: row.type,
      flag: showRequired ? (row.required ? 'required' : 'optional') : undefined,
      description: row.description,
    })),
  );
}

function parameterTable(document, parameters, heading = 'Parameter') {
  return namedTable(
    heading,
    parameters.map((parameter) => ({
      name: parameter.name,
      type: typeOf(document, parameter.schema),
      flag: parameter.required ? 'required' : 'optional',
      description: parameter.description,
      example: parameter.example,
    })),
  );
}

/**
 * The request samples: curl, the SDK and the CLI, each in a labelled pane, all shown at once (no tabs), one above the
 * other. Each is a fenced block the samples test runs (see samples.mjs for how they are made).
 */
function samplesBlock(samples) {
  const panes = samples.map(
    ({ client, label, lang, code }) =>
      `<div class="request-sample" data-client="${client}">\n<div class="request-sample-label">${label}</div>\n\n\`\`\`${lang}\n${code}\n\`\`\`\n\n</div>`,
  );
  return `<div class="request-samples">\n${panes.join('\n')}\n</div>\n`;
}

/** A response's headers table: name, whether it is always sent, what it says, an example. */
function headerTable(headers) {
  return namedTable(
    'Header',
    Object.entries(headers).map(([name, header]) => ({
      name,
      flag: header.required ? 'always sent' : 'sometimes sent',
      description: header.description,
      example: header.example,
    })),
  );
}

/** One row per error status; its When cell names the headers that status adds to those of a success. */
function errorRows(document, operation, successHeaders) {
  return Object.entries(operation.responses)
    .filter(([status]) => status !== '200')
    .map(([status, response]) => {
      const resolved = response.$ref ? document.components.responses[refName(response.$ref)] : response;
      const example = resolved.content?.['application/json']?.example ?? {};
      const added = Object.keys(resolved.headers ?? {}).filter((name) => !(name in successHeaders));
      const extra = added.length ? ` Header: ${added.map((h) => `\`${h}\``).join(', ')}.` : '';
      return `| ${status} | \`${example.code}\` | ${cell(example.message)} | ${cell(resolved.description + extra)} |`;
    });
}

/** What the samples' other environment variables hold: `; \`ITEM_ID\` is the id of an item`. */
function sampleEnv(operation) {
  const names = requestEnv(sampleRequest(operation));
  const said = names.map((name) =>
    name === CURSOR_ENV
      ? `\`${name}\` a cursor of the [changes feed](/guide/keeping-in-sync)`
      : `\`${name}\` the id of ${article(name.replace(/_ID$/, '').replace(/_/g, ' ').toLowerCase())}`,
  );
  return said.length ? `; ${said.join(', ')}` : '';
}

const article = (noun) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** The name of the SDK's answer to an operation: its response schema's (`ItemList` is `itemList`). */
function responseName(operation) {
  const ref = operation.responses['200']?.content?.['application/json']?.schema?.$ref;
  const name = ref ? refName(ref) : 'result';
  return `${name[0]?.toLowerCase()}${name.slice(1)}`;
}

/** Each operation's contract route key (`listItems` is `items.list`), from the contract's routes. */
export function routeKeys(contractRoutes) {
  return Object.fromEntries(contractRoutes.map(({ key, route }) => [route.metadata.operationId, key]));
}

/**
 * One operation's page. `context` gives what its request samples are made from: each operation's contract route key
 * (`routeKeys`; `items.list` is the SDK's `client.items.list`) and the CLI's commands (`commandTree` of
 * `coinventory`).
 */
export function renderOperation(document, operation, context) {
  const scope = operation['x-required-scope'];
  const out = [];
  // No outline column: the width goes to the samples and tables, and the sidebar lists the operations.
  out.push(`---\naside: false\npageClass: api-operation\n---\n`);
  out.push(`# ${operation.summary}\n`);
  out.push(
    `<div class="operation-line"><span class="method method-${operation.method.toLowerCase()}">${operation.method}</span> <code>${operation.path}</code></div>\n`,
  );
  out.push(`${prose(operation.description)}\n`);
  out.push(
    `| Operation id | Scope | Tag |\n|---|---|---|\n| \`${operation.operationId}\` | \`${scope}\` | ${operation.tags.join(', ')} |\n`,
  );

  const routeKey = context.routeKeys[operation.operationId];
  if (!routeKey) throw new Error(`${operation.operationId}: no route of the contract has this operation id`);
  const samples = requestSamples(operation, {
    routeKey,
    commands: context.commands,
    responseName: responseName(operation),
    streamed: !operation.responses['200']?.content?.['application/json'],
  });
  out.push('## Request\n');
  out.push(
    `### Request samples\n\nThe same request with curl, the [SDK](/guide/sdk) and the [CLI](/guide/cli). \`COINVENTORY_API_KEY\` holds your API key and \`COINVENTORY_BASE_URL\` the API's base URL (curl spells it out)${sampleEnv(operation)}.\n`,
  );
  out.push(samplesBlock(samples));
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const headerParameters = operation.parameters.filter((parameter) => parameter.in === 'header');
  if (pathParameters.length) out.push(`### Path parameters\n\n${parameterTable(document, pathParameters)}`);
  if (queryParameters.length) out.push(`### Query parameters\n\n${parameterTable(document, queryParameters)}`);
  if (!pathParameters.length && !queryParameters.length && !operation.requestBody)
    out.push('This operation takes no path or query parameters and no body.\n');
  if (headerParameters.length)
    out.push(
      `### Headers\n\nBesides \`Authorization: Bearer <API key>\`:\n\n${parameterTable(document, headerParameters, 'Header')}`,
    );
  if (operation.requestBody) {
    const media = operation.requestBody.content['application/json'];
    out.push(`### Body\n\n${prose(operation.requestBody.description)}\n`);
    out.push(fieldTable(document, media.schema, { showRequired: true }));
  }

  out.push('## Responses\n');
  const success = operation.responses['200'];
  const media = success.content['application/json'];
  if (media) {
    const successType = media.schema.$ref ? ` (${typeOf(document, media.schema)})` : '';
    out.push(`### 200 ${prose(success.description)}${successType}\n`);
    out.push(fieldTable(document, media.schema, { showRequired: false }));
    out.push(`\n#### Example response\n\n\`\`\`json\n${json(media.example)}\n\`\`\`\n`);
  } else {
    // A streamed answer (the export): each media type it can be sent in, described, with its example as sent.
    out.push(`### 200 ${prose(success.description)}\n`);
    for (const [type, streamed] of Object.entries(success.content)) {
      out.push(`#### \`${type}\`\n\n${prose(streamed.schema.description)}\n`);
      out.push(`\`\`\`text\n${String(streamed.example).trimEnd()}\n\`\`\`\n`);
    }
  }
  const successHeaders = success.headers ?? {};
  if (Object.keys(successHeaders).length)
    out.push(
      `#### Response headers\n\nSee [Rate limits](/guide/rate-limits) for the \`RateLimit\` fields.\n\n${headerTable(successHeaders)}`,
    );
  out.push(
    `### Errors\n\nEvery error has the body \`{ code, message, issues? }\` ([Errors](/guide/errors)) and carries \`X-Request-Id\` and \`RateLimit-Policy\`; \`RateLimit\` too once the request was counted against a key that may call (so never with a \`401\`).\n\n| Status | Code | Message | When |\n|---|---|---|---|\n${errorRows(document, operation, successHeaders).join('\n')}\n`,
  );
  return out.join('\n');
}

/** The reference's index: base URL, authentication and every operation. */
export function renderApiIndex(document) {
  const out = [];
  out.push(`# API reference\n`);
  out.push(`${document.info.summary} OpenAPI ${document.openapi}, document version ${document.info.version}.\n`);
  out.push(prose(document.info.description));
  out.push(
    `\nThe machine-readable document: [openapi.json](/openapi.json) (every server also serves it at \`GET /v1/openapi.json\`, with an interactive reference at \`/docs\`).\n`,
  );
  for (const { tag, description, operations } of operationsByTag(document)) {
    out.push(`## ${tag}\n\n${prose(description)}\n`);
    out.push('| Operation | Method and path | Scope |\n|---|---|---|');
    for (const operation of operations)
      out.push(
        `| [${operation.summary}](${operationLink(operation.operationId)}) | \`${operation.method} ${operation.path}\` | \`${operation['x-required-scope']}\` |`,
      );
    out.push('');
  }
  out.push(`## Authentication\n\n${prose(document.components.securitySchemes.bearerAuth.description)}\n`);
  out.push(`## Errors\n\n| Status | Code | Message | When |\n|---|---|---|---|`);
  for (const response of Object.values(document.components.responses)) {
    const example = response.content['application/json'].example;
    out.push(
      `| ${ERRORS[example.code].status} | \`${example.code}\` | ${cell(example.message)} | ${cell(response.description)} |`,
    );
  }
  out.push('');
  return out.join('\n');
}

/** Every component schema, with its fields and example. */
export function renderSchemas(document) {
  const out = [
    '---\noutline: [2, 2]\n---\n',
    '# Schemas\n',
    'Every object the API sends or accepts, as the contract defines it.\n',
  ];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(`## ${name}\n\n${prose(schema.description)}\n`);
    out.push(fieldTable(document, schema, { showRequired: name.endsWith('Body') }));
    for (const example of schema.examples ?? []) out.push(`\n**Example**\n\n\`\`\`json\n${json(example)}\n\`\`\`\n`);
  }
  return out.join('\n');
}

/**
 * A CLI's command tree from its help texts: `help(args)` returns the help of `args`; commands are read from the
 * "Commands:" section (`name|alias [args]  description`), recursively. Returns every command path, root first.
 */
export function commandTree(help, root) {
  const visit = (path) => {
    const text = help(path.slice(1));
    const commands = [{ path, help: text }];
    for (const name of subcommands(text)) commands.push(...visit([...path, name]));
    return commands;
  };
  return visit(root);
}

/** Names listed under a commander help's "Commands:" heading (aliases and `help` left out). */
export function subcommands(helpText) {
  const section = helpText.split(/\n\n+/).find((block) => block.startsWith('Commands:')) ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}([a-z][a-z-]*)/.exec(line)?.[1])
    .filter((name) => name !== undefined && name !== 'help');
}
