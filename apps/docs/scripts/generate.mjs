// Writes the generated pages of the site from the product itself, so they cannot drift from it:
// - site/reference/api/*.md: one page per operation, an index and the schemas, from the contract's OpenAPI document
//   (each operation's request samples also from the contract's routes and the CLI's help: scripts/samples.mjs);
// - site/public/openapi.json: that document, downloadable from the site;
// - site/reference/cli.md and site/reference/cli/<command>.md: every `coinventory` command's own --help, laid out as
//   documentation (scripts/reference-pages.mjs);
// - site/reference/operator.md: every `coinventory-server` command's own --help, the same way.
// Run by `build` and `dev`; the output is not committed (see .gitignore).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractRoutes } from '@coinventory/contract';
import { CLI_BIN, helpReader, SERVER_BIN } from './help.mjs';
import { renderCliPages, renderOperatorReference } from './reference-pages.mjs';
import { commandTree, operationsByTag, renderApiIndex, renderOperation, renderSchemas, routeKeys } from './render.mjs';

const site = fileURLToPath(new URL('../site/', import.meta.url));
const require = createRequire(import.meta.url);
const document = require('@coinventory/contract/openapi.json');

const apiDir = join(site, 'reference/api');
rmSync(apiDir, { recursive: true, force: true });
mkdirSync(apiDir, { recursive: true });
mkdirSync(join(site, 'public'), { recursive: true });

// The CLI's commands first: each operation's page shows its request as a `coinventory` command too.
const cliHelp = helpReader(CLI_BIN);
const cliCommands = commandTree(cliHelp, ['coinventory']);
const context = { routeKeys: routeKeys(contractRoutes), commands: cliCommands };

let pages = 0;
for (const { operations } of operationsByTag(document)) {
  for (const operation of operations) {
    writeFileSync(join(apiDir, `${operation.operationId}.md`), renderOperation(document, operation, context));
    pages += 1;
  }
}
writeFileSync(join(apiDir, 'index.md'), renderApiIndex(document));
writeFileSync(join(apiDir, 'schemas.md'), renderSchemas(document));
writeFileSync(join(site, 'public/openapi.json'), `${JSON.stringify(document, null, 2)}\n`);

const cliDir = join(site, 'reference/cli');
rmSync(cliDir, { recursive: true, force: true });
mkdirSync(cliDir, { recursive: true });
const cliPages = renderCliPages(cliCommands);
writeFileSync(join(site, 'reference/cli.md'), cliPages.index);
for (const { name, markdown } of cliPages.pages) writeFileSync(join(cliDir, `${name}.md`), markdown);

const serverHelp = helpReader(SERVER_BIN);
writeFileSync(join(site, 'reference/operator.md'), renderOperatorReference(serverHelp));

console.log(
  `docs: ${pages} operation pages, ${cliCommands.length} CLI commands on ${cliPages.pages.length + 1} pages and the operator commands written under site/reference`,
);
