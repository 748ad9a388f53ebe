// Writes the generated pages of the site from the product itself, so they cannot drift from it:
// - site/reference/api/*.md: one page per operation, an index and the schemas, from the contract's OpenAPI document
//   (each operation's request samples also from the contract's routes and the CLI's help: scripts/samples.mjs);
// - site/public/openapi.json: that document, downloadable from the site;
// - site/reference/cli.md: every `coinventory` command's own --help;
// - site/reference/operator.md: every `coinventory-server` command's own --help.
// Run by `build` and `dev`; the output is not committed (see .gitignore).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractRoutes } from '@coinventory/contract';
import { helpReader } from './help.mjs';
import {
  commandTree,
  operationsByTag,
  renderApiIndex,
  renderCliReference,
  renderOperation,
  renderOperatorReference,
  renderSchemas,
  routeKeys,
} from './render.mjs';

const site = fileURLToPath(new URL('../site/', import.meta.url));
const require = createRequire(import.meta.url);
const document = require('@coinventory/contract/openapi.json');

// Binaries of the workspace packages this package depends on (built first by turbo's ^build).
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));
const cliBin = join(packageDir('@coinventory/cli'), 'dist/coinventory.js');
const serverBin = join(packageDir('@coinventory/server'), 'dist/main.js');

const apiDir = join(site, 'reference/api');
rmSync(apiDir, { recursive: true, force: true });
mkdirSync(apiDir, { recursive: true });
mkdirSync(join(site, 'public'), { recursive: true });

// The CLI's commands first: each operation's page shows its request as a `coinventory` command too.
const cliHelp = helpReader(cliBin);
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

writeFileSync(join(site, 'reference/cli.md'), renderCliReference(cliCommands));

const serverHelp = helpReader(serverBin);
writeFileSync(join(site, 'reference/operator.md'), renderOperatorReference(serverHelp));

console.log(
  `docs: ${pages} operation pages, ${cliCommands.length} CLI commands and the operator commands written under site/reference`,
);
