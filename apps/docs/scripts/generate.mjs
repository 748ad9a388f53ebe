// Writes the generated pages of the site from the product itself, so they cannot drift from it:
// - site/reference/api/*.md: one page per operation, an index and the schemas, from the contract's OpenAPI document;
// - site/public/openapi.json: that document, downloadable from the site;
// - site/reference/cli.md: every `coinventory` command's own --help;
// - site/reference/operator.md: every `coinventory-server` command's own --help.
// Run by `build` and `dev`; the output is not committed (see .gitignore).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  commandTree,
  operationsByTag,
  renderApiIndex,
  renderCliReference,
  renderOperation,
  renderOperatorReference,
  renderSchemas,
} from './render.mjs';

const site = fileURLToPath(new URL('../site/', import.meta.url));
const require = createRequire(import.meta.url);
const document = require('@coinventory/contract/openapi.json');

// Binaries of the workspace packages this package depends on (built first by turbo's ^build).
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));
const cliBin = join(packageDir('@coinventory/cli'), 'dist/coinventory.js');
const serverBin = join(packageDir('@coinventory/server'), 'dist/main.js');

/** Runs a binary for its help text, as a user on an 80-column terminal without colour would see it. */
const helpOf = (bin) => (args) => {
  const options = {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', COLUMNS: '80', HOME: process.env.HOME ?? '' },
  };
  try {
    return execFileSync(process.execPath, [bin, ...args, '--help'], options);
  } catch (error) {
    // A command without options of its own refuses `--help`; it is documented by its parent's help.
    if (args.length === 0) throw error;
    return execFileSync(process.execPath, [bin, '--help'], options);
  }
};

const apiDir = join(site, 'reference/api');
rmSync(apiDir, { recursive: true, force: true });
mkdirSync(apiDir, { recursive: true });
mkdirSync(join(site, 'public'), { recursive: true });

let pages = 0;
for (const { operations } of operationsByTag(document)) {
  for (const operation of operations) {
    writeFileSync(join(apiDir, `${operation.operationId}.md`), renderOperation(document, operation));
    pages += 1;
  }
}
writeFileSync(join(apiDir, 'index.md'), renderApiIndex(document));
writeFileSync(join(apiDir, 'schemas.md'), renderSchemas(document));
writeFileSync(join(site, 'public/openapi.json'), `${JSON.stringify(document, null, 2)}\n`);

const cliHelp = helpOf(cliBin);
const cliCommands = commandTree(cliHelp, ['coinventory']);
writeFileSync(join(site, 'reference/cli.md'), renderCliReference(cliCommands));

const serverHelp = helpOf(serverBin);
writeFileSync(join(site, 'reference/operator.md'), renderOperatorReference(serverHelp));

console.log(
  `docs: ${pages} operation pages, ${cliCommands.length} CLI commands and the operator commands written under site/reference`,
);
