// The references say what the product is: the generated pages are current, and the hand-written SDK reference
// names every export and every method of the published SDK.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractRoutes, ERRORS, IDEMPOTENCY, WEBHOOKS } from '@coinventory/contract';
import openApiDocument from '@coinventory/contract/openapi';
import { Coinventory } from '@coinventory/sdk';
import { SERVER_BIN } from '@coinventory/test-server';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { helpReader } from '../scripts/help.mjs';
import { HELP_CODE_WIDTH } from '../scripts/help-doc.mjs';
import { operatorCommands, renderCliPages, renderOperatorReference } from '../scripts/reference-pages.mjs';
import {
  commandTree,
  namedCell,
  operationsByTag,
  renderApiIndex,
  renderOperation,
  routeKeys,
  subcommands,
} from '../scripts/render.mjs';
import { cliCommandOf, SAMPLE_WIDTH } from '../scripts/samples.mjs';
import { codeBlocks } from './support/markdown.js';

const SITE = fileURLToPath(new URL('../site/', import.meta.url));
const require = createRequire(import.meta.url);
const read = (path: string) => readFileSync(join(SITE, path), 'utf8');
/** `text` as a regular expression matching it literally. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CLI_BIN = join(dirname(require.resolve('@coinventory/cli/package.json')), 'dist/coinventory.js');
/** The CLI's commands, from its own help: the CLI reference, and the API reference's CLI samples. */
const cliCommands = commandTree(helpReader(CLI_BIN), ['coinventory']);
const context = { routeKeys: routeKeys(contractRoutes), commands: cliCommands };
/**
 * The server binary's help, by arguments, each read once (a start of the binary, about half a second of CPU): its
 * top-level help serves the operator reference, its list of commands and the configuration tables.
 */
const serverHelp = (() => {
  const run = helpReader(SERVER_BIN);
  const seen = new Map<string, string>();
  return (args: string[]): string => {
    const key = JSON.stringify(args);
    const known = seen.get(key);
    if (known !== undefined) return known;
    const text = run(args);
    seen.set(key, text);
    return text;
  };
})();

describe('the API reference', () => {
  it('has a page for every operation of the contract, as the current document renders it', () => {
    const documented = operationsByTag(openApiDocument).flatMap(({ operations }) => operations);
    expect(documented.map((op) => op.operationId).sort()).toEqual(
      contractRoutes.map(({ route }) => route.metadata.operationId).sort(),
    );
    for (const operation of documented) {
      const page = read(`reference/api/${operation.operationId}.md`);
      expect(page).toBe(renderOperation(openApiDocument, operation, context));
      expect(page).toContain(`# ${operation.summary}`);
      // Parameters: the name, its type and whether it is required in the first cell, then the description.
      for (const parameter of operation.parameters) {
        const flag = namedCell(parameter.name, parameter.required ? 'required' : 'optional');
        expect(page, parameter.name).toMatch(
          new RegExp(
            `^${literally(namedCell(parameter.name))}<span class="api-type">[^|]*</span> ${literally(flag)} \\| `,
            'm',
          ),
        );
      }
      const success = operation.responses['200'];
      const successHeaders = success && !('$ref' in success) ? (success.headers ?? {}) : {};
      expect(Object.keys(successHeaders)).toContain('X-Request-Id');
      for (const [header, spec] of Object.entries(successHeaders)) {
        const sent = '$ref' in spec || spec.required ? 'always sent' : 'sometimes sent';
        expect(page, `response header ${header}`).toContain(`${namedCell(header)}${namedCell(header, sent)} | `);
      }
      for (const status of Object.keys(operation.responses))
        expect(page, status).toContain(status === '200' ? '### 200 ' : `| ${status} |`);
    }
    expect(read('reference/api/index.md')).toBe(renderApiIndex(openApiDocument));
  });

  it('shows every field of every request body and response, and every error code', () => {
    for (const operation of operationsByTag(openApiDocument).flatMap(({ operations }) => operations)) {
      const page = read(`reference/api/${operation.operationId}.md`);
      const body = operation.requestBody?.content['application/json']?.schema;
      const bodyFields = Object.keys((body?.properties as Record<string, unknown> | undefined) ?? {});
      const required = new Set((body?.required as string[] | undefined) ?? []);
      for (const field of bodyFields)
        expect(page, `${operation.operationId} body ${field}`).toMatch(
          new RegExp(
            `^${literally(namedCell(field))}<span class="api-type">[^|]*</span> ${literally(namedCell(field, required.has(field) ? 'required' : 'optional'))} \\| `,
            'm',
          ),
        );
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '200' || !('$ref' in response)) continue;
        const shared = openApiDocument.components.responses[String(response.$ref).split('/').pop() ?? ''];
        const code = (shared?.content?.['application/json']?.example as { code: string } | undefined)?.code;
        expect(page, `${operation.operationId} ${status}`).toContain(`| ${status} | \`${code}\` |`);
      }
    }
  });

  it("shows each request with curl, the SDK (the route's method) and the CLI (its command, else `coinventory api`)", () => {
    const client = new Coinventory({
      apiKey: 'cvk_live_documentation0000000000000000000000',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    const api = cliCommands.find((command) => command.path.join(' ') === 'coinventory api');
    const usedApi: string[] = [];
    for (const operation of operationsByTag(openApiDocument).flatMap(({ operations }) => operations)) {
      const page = read(`reference/api/${operation.operationId}.md`);
      const blocks = codeBlocks(operation.operationId, page).filter((block) => ['bash', 'ts'].includes(block.lang));
      const [curl, sdk, cli] = blocks;
      expect(
        blocks.map((block) => block.lang),
        operation.operationId,
      ).toEqual(['bash', 'ts', 'bash']);
      // Each pane is labelled, and all three are in one block: shown together, not behind tabs.
      expect(page).toMatch(/<div class="request-samples">\n<div class="request-sample" data-client="curl">/);
      expect(curl?.code).toMatch(
        new RegExp(`^curl -sS${operation.method === 'GET' ? '' : ` -X ${operation.method}`} `),
      );
      // The SDK's method is the contract route's, and the SDK has it.
      const key = context.routeKeys[operation.operationId] ?? '';
      expect(sdk?.code, operation.operationId).toContain(`client.${key}(`);
      const method = key
        .split('.')
        .reduce<unknown>((target, name) => (target as Record<string, unknown>)[name], client);
      expect(typeof method, `client.${key}`).toBe('function');
      // The CLI: the route's own command when the CLI has one, else the raw request.
      const command = cliCommandOf(key, cliCommands);
      if (command) expect(cli?.code, operation.operationId).toMatch(new RegExp(`^${command.path.join(' ')}( |$)`));
      else {
        expect(cli?.code, operation.operationId).toMatch(new RegExp(`^coinventory api ${operation.method} `));
        usedApi.push(operation.operationId);
      }
      // Lines short enough for their pane at 1280 pixels (the browser test measures it); only a URL, alone on its
      // line, may be longer, as it cannot be split.
      for (const block of blocks)
        for (const line of block.code.split('\n'))
          if (!/^ {2}"http:\/\/[^"\s]+" \\$/.test(line))
            expect(line.length, `${operation.operationId}: ${line}`).toBeLessThanOrEqual(SAMPLE_WIDTH);
    }
    // `coinventory api` is the CLI's raw request, for the few operations without a command of their own.
    if (usedApi.length) expect(api, `coinventory api, for ${usedApi.join(', ')}`).toBeDefined();
    expect(usedApi.length).toBeLessThan(5);
  });

  it('publishes the OpenAPI document itself for download', () => {
    expect(JSON.parse(read('public/openapi.json'))).toEqual(openApiDocument);
  });
});

/** Words of a help text that a page does not have (the page's Markdown read as text: escapes and markup aside). */
function missingWords(help: string, page: string): string[] {
  const wordsOf = (text: string) =>
    text
      .toLowerCase()
      .replace(/\\(.)/g, '$1')
      .match(/[a-z0-9][a-z0-9'.-]*[a-z0-9]|[a-z0-9]/g) ?? [];
  const shown = new Set(wordsOf(page.replace(/&lt;/g, '<').replace(/&gt;/g, '>')));
  // `Usage:` is the help's label for what the page shows as the first code block.
  return [...new Set(wordsOf(help.replace(/^Usage: /, '')))].filter((word) => !shown.has(word));
}

describe('the CLI reference', () => {
  const commands = cliCommands;

  it("is the CLI's own help, current: an index and a page per command", () => {
    const { index, pages } = renderCliPages(commands);
    expect(read('reference/cli.md')).toBe(index);
    expect(pages.map((page) => page.name)).toEqual(subcommands(commands[0]?.help ?? ''));
    expect(readdirSync(join(SITE, 'reference/cli')).sort()).toEqual(pages.map((page) => `${page.name}.md`).sort());
    for (const { name, markdown } of pages) expect(read(`reference/cli/${name}.md`), name).toBe(markdown);
  });

  it('lays each help out without losing a word of it: every command on its page, under its own heading', () => {
    const { index, pages } = renderCliPages(commands);
    for (const command of commands) {
      const [, top] = command.path;
      const page = top === undefined ? index : (pages.find((candidate) => candidate.name === top)?.markdown ?? '');
      if (command.path.length > 2) expect(page).toContain(`\n## ${command.path.join(' ')} {#`);
      else expect(page).toMatch(top === undefined ? /^# CLI reference$/m : `\n# ${command.path.join(' ')}\n`);
      // The global options are on the index only; everything else a help says is on its command's page.
      const help = command.path.length > 1 ? command.help.replace(/\nGlobal Options:\n(?: .*\n)+/, '\n') : command.help;
      expect(missingWords(help, page), command.path.join(' ')).toEqual([]);
    }
  });

  it('wraps usages and examples to fit the column, with shell continuations in examples', () => {
    const pages = [renderCliPages(commands).index, ...renderCliPages(commands).pages.map((page) => page.markdown)];
    for (const page of pages)
      for (const block of codeBlocks('cli', page)) {
        expect(['text', 'sh']).toContain(block.lang);
        for (const line of block.code.split('\n')) expect(line.length, line).toBeLessThanOrEqual(HELP_CODE_WIDTH);
      }
    // An example's command, joined again, is the help's own.
    const items = renderCliPages(commands).pages.find((page) => page.name === 'items')?.markdown ?? '';
    const examples = codeBlocks('items', items)
      .filter((block) => block.lang === 'sh')
      .flatMap((block) => block.code.replace(/ \\\n {2}/g, ' ').split('\n'));
    expect(examples).toContain(
      'coinventory items list --status in_stock --grading-service PCGS --sort value_desc --limit 50 --page 2',
    );
  });

  it('covers every command, the ones for each API operation among them', () => {
    const paths = commands.map((command) => command.path.join(' '));
    for (const expected of [
      'coinventory me',
      'coinventory items list',
      'coinventory items get',
      'coinventory items create',
      'coinventory items update',
      'coinventory items delete',
      'coinventory items valuations',
      'coinventory consignments list',
      'coinventory consignments get',
      'coinventory invoices list',
      'coinventory invoices get',
      'coinventory categories list',
      'coinventory categories get',
      'coinventory warehouses list',
      'coinventory warehouses get',
      'coinventory changes',
      'coinventory changes list',
      'coinventory changes cursor',
      'coinventory login',
      'coinventory logout',
    ])
      expect(paths).toContain(expected);
  });
});

describe('the operator commands reference', () => {
  it("is the server binary's own help, current, with every command", () => {
    const help = serverHelp;
    const page = read('reference/operator.md');
    expect(page).toBe(renderOperatorReference(help));
    const names = operatorCommands(help([]));
    expect(names.length).toBeGreaterThan(15);
    expect(missingWords(help([]), page)).toEqual([]);
    for (const name of names) {
      expect(page, name).toContain(`\n## coinventory-server ${name} {#${name.replace(/ /g, '-')}}\n`);
      const own = page.slice(page.indexOf(`\n## coinventory-server ${name} {`)).split('\n## ')[1] ?? '';
      expect(missingWords(help(name.split(' ')), own), name).toEqual([]);
    }
  });

  it('the deploying guide and the configuration page have a row for every variable the server reads, as its help lists them', () => {
    const help = serverHelp([]);
    const configuration = help.slice(help.indexOf('\nConfiguration'));
    const variables = [...configuration.matchAll(/^ {2}([A-Z][A-Z0-9_]+)\b/gm)].map((m) => m[1]);
    expect(variables).toContain('WEB_CONCURRENCY');
    expect(variables.length).toBeGreaterThan(20);
    const guide = read('guide/deploying.md');
    for (const variable of variables) expect(guide, variable).toMatch(new RegExp(`^\\| \`${variable}\` +\\|`, 'm'));
    // The configuration page (operating/) has the same table, some rows naming two or three related variables.
    const table = read('operating/configuration.md');
    for (const variable of variables)
      expect(table, `operating/configuration.md: ${variable}`).toMatch(new RegExp(`^\\|[^|]*\`${variable}\``, 'm'));
  });
});

describe('the errors guide', () => {
  it('has one row per error code: its status, code and exact message, as the contract defines them', () => {
    const page = read('guide/errors.md');
    const table = page.slice(page.indexOf('## Every error code'));
    const rows = [...table.matchAll(/^\| (\d{3}) +\| `([A-Z_]+)` +\| `([^`]+)` +\|/gm)].map(
      ([, status, code, message]) => ({
        status: Number(status),
        code,
        message,
      }),
    );
    const expected = Object.entries(ERRORS).map(([code, { status, message }]) => ({ status, code, message }));
    expect(rows).toEqual(expected);
  });
});

describe('the idempotency guide', () => {
  const page = read('guide/idempotency.md');

  it('lists every write of the contract, and only those, as the reference names them', () => {
    const rows = [...page.matchAll(/^\| \[(.+?)\]\(\/reference\/api\/(\w+)\) \| `(\w+) (\S+)` \|$/gm)].map((m) =>
      m.slice(1),
    );
    const writes = contractRoutes
      .filter(({ route }) => route.method !== 'GET')
      .map(({ route }) => [
        route.summary,
        route.metadata.operationId,
        route.method,
        `/v1${route.path.replace(/:(\w+)/g, '{$1}')}`,
      ]);
    expect(rows).toEqual(writes);
  });

  it("gives the contract's key format, retention and error codes", () => {
    expect(page).toContain(`${IDEMPOTENCY.key.min} to ${IDEMPOTENCY.key.max} printable ASCII characters`);
    expect(page).toContain(`kept for ${IDEMPOTENCY.retentionHours} hours`);
    expect(page).toContain(`\`${IDEMPOTENCY.header}\``);
    expect(page).toContain(`\`${IDEMPOTENCY.replayedHeader}: true\``);
    expect(page).toContain(`| \`${ERRORS.IDEMPOTENCY_KEY_IN_USE.status}\` | \`IDEMPOTENCY_KEY_IN_USE\` |`);
    for (const hours of page.matchAll(/(\d+) hours/g)) expect(Number(hours[1])).toBe(IDEMPOTENCY.retentionHours);
  });
});

describe('the webhooks guide', () => {
  // The guides write numbers out, as readers read them; this keeps the webhooks guide's in step with the contract.
  const page = read('guide/webhooks.md').replace(/\s+/g, ' ');

  it("gives the contract's numbers", () => {
    for (const phrase of [
      `for **${WEBHOOKS.retryHours} hours** after its first attempt`,
      `fail for **${WEBHOOKS.disableAfterFailingHours} hours** without one success`,
      `Retried for ${WEBHOOKS.retryHours} hours`,
      `For ${WEBHOOKS.previousSecretHours} hours (until \`previousSecretExpiresAt\`)`,
      `An organization has at most ${WEBHOOKS.maxEndpoints} endpoints`,
      `at most ${WEBHOOKS.url.max.toLocaleString('en-US')} characters`,
      `at most ${WEBHOOKS.description.max} characters`,
      `the base64 of ${WEBHOOKS.secretBytes} random bytes`,
      `more than ${WEBHOOKS.toleranceSeconds / 60} minutes from your clock`,
      `\`tolerance\` is in seconds, ${WEBHOOKS.toleranceSeconds} unless given`,
      `> ${WEBHOOKS.toleranceSeconds}) return false`,
      `Any \`2xx\` within ${WEBHOOKS.timeoutMs / 1000} seconds`,
      `an answer slower than ${WEBHOOKS.timeoutMs / 1000} seconds`,
      `at most ${WEBHOOKS.maxResponseBytes / 1024} KiB of it is read`,
      `at most ${WEBHOOKS.maxResponseBytes / 1024} KiB of an answer is read`,
    ])
      expect(page, phrase).toContain(phrase);
  });

  it('names no other number of hours than the contract has', () => {
    const hours = new Set<number>([
      WEBHOOKS.retryHours,
      WEBHOOKS.disableAfterFailingHours,
      WEBHOOKS.previousSecretHours,
    ]);
    const stated = [...page.matchAll(/(\d+)\*{0,2} hours/g)].map((match) => Number(match[1]));
    expect(stated.length).toBeGreaterThan(3);
    expect(stated.filter((n) => !hours.has(n))).toEqual([]);
  });
});

describe('the SDK reference', () => {
  const page = read('reference/sdk.md');

  it('names every export of @coinventory/sdk', () => {
    const typesEntry = join(dirname(require.resolve('@coinventory/sdk/package.json')), 'dist/index.d.ts');
    expect(existsSync(typesEntry)).toBe(true);
    const program = ts.createProgram([typesEntry], { skipLibCheck: true });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(typesEntry);
    const module = source && checker.getSymbolAtLocation(source);
    const names = module ? checker.getExportsOfModule(module).map((symbol) => symbol.name) : [];
    expect(names.length).toBeGreaterThan(40);
    // The Exports table's first column is the list: exactly the package's exports, none missing and none stale.
    const section = page.slice(
      page.indexOf('\n## Exports\n'),
      page.indexOf('\n## ', page.indexOf('\n## Exports\n') + 1),
    );
    const listed = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((match) => match[1]));
    expect([...new Set(listed)].sort()).toEqual([...names].sort());
  });

  it('documents every method of every resource', () => {
    const client = new Coinventory({
      apiKey: 'cvk_live_documentation0000000000000000000000',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    const resources = {
      client,
      items: client.items,
      reservations: client.reservations,
      consignments: client.consignments,
      invoices: client.invoices,
      categories: client.categories,
      warehouses: client.warehouses,
      changes: client.changes,
      webhookEndpoints: client.webhookEndpoints,
    };
    const missing: string[] = [];
    for (const [name, resource] of Object.entries(resources)) {
      const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(resource)).filter(
        (method) => method !== 'constructor' && !method.startsWith('_'),
      );
      expect(methods.length, name).toBeGreaterThan(0);
      const prefix = name === 'client' ? 'client' : `client.${name}`;
      for (const method of methods) if (!page.includes(`${prefix}.${method}(`)) missing.push(`${prefix}.${method}(`);
    }
    expect(missing).toEqual([]);
  });
});
