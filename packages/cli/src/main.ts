import { setFlagsFromString } from 'node:v8';
import { DEFAULT_BASE_URL, TEST_MODE } from '@coinventory/contract/constants';
import { Command, CommanderError, Option } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { registerApi } from './commands/api.js';
import { registerAuth } from './commands/auth.js';
import { registerCategories } from './commands/categories.js';
import { registerChanges } from './commands/changes.js';
import { registerCompletion } from './commands/completion.js';
import { registerConsignments } from './commands/consignments.js';
import { registerInvoices } from './commands/invoices.js';
import { registerItems } from './commands/items.js';
import { registerListen } from './commands/listen.js';
import { registerMe } from './commands/me.js';
import { registerReservations } from './commands/reservations.js';
import { registerWarehouses } from './commands/warehouses.js';
import { registerWebhooks } from './commands/webhooks.js';
import { EXIT, EXIT_CODE_HELP, reportError, UsageError } from './errors.js';
import { colourEnabled, createStyle } from './output/format.js';
import { handleInterrupts } from './signals.js';

const ROOT_HELP = `
Output:
  Tables by default; --json prints the API's objects (a list as the API's list body,
  { "items": [...], "page", "limit", "hasMore" }, or with --all { "items": [every item],
  "hasMore": false }, streamed; changes as one object per line); --output csv prints
  lists as CSV (header row, RFC 4180). A table, or CSV on a terminal, with more pages
  after it ends with a line on stderr: which rows these are, and --page N or --all.
  Money in tables is in dollars and dates in your time zone (TZ); JSON and CSV keep the
  API's cents and UTC.
  Colour only on a terminal, never with NO_COLOR set or --no-color.

Authentication (first match wins):
  --api-key <key>, then COINVENTORY_API_KEY, then the key 'coinventory login' saved in the
  profile (--profile, default 'default').
  A live key (${TEST_MODE.keyPrefixes.live}…) reaches the workspace; a test key (${TEST_MODE.keyPrefixes.test}…) reaches its
  sandbox, and every command that calls the API with one first says "Test mode" on stderr.

Environment:
  COINVENTORY_API_KEY     API key
  COINVENTORY_BASE_URL    API base URL (default ${DEFAULT_BASE_URL})
  COINVENTORY_CONFIG_DIR  directory of config.json (default $XDG_CONFIG_HOME/coinventory
                          or ~/.config/coinventory)
  NO_COLOR                disable colour
  COLUMNS                 table width when output is not a terminal (default: no limit)

Exit codes:
${EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padEnd(4)}${text}`).join('\n')}

Examples:
  $ coinventory login
  $ coinventory items list --status in_stock --sort value_desc
  $ coinventory items create --sku MOR-1921 --title "1921 Morgan Dollar" --value 45
  $ coinventory items update MOR-1921 --quantity 3
  $ coinventory items adjust MOR-1921 --available -1 --sold +1 --reason sale --reference ORD-1
  $ coinventory reservations create MOR-1921 --reference WEB-ORDER-1187
  $ coinventory items export --format csv > items.csv
  $ coinventory items import items.csv --mode upsert
  $ coinventory changes --after now --follow
  $ coinventory listen --forward-to http://localhost:4242/webhooks
  $ coinventory invoices list --all --output csv > invoices.csv
  $ coinventory items list --fields sku,title,quantity.available
  $ coinventory api GET /items --query status=at_auction
`;

export function buildProgram(): Command {
  const errorColour = colourEnabled(process.stderr, process.env, !process.argv.includes('--no-color'));
  const style = createStyle(errorColour);
  const program = new Command('coinventory')
    .description(
      'Coinventory from the shell: inventory items, their movements and reservations, valuations, categories, warehouses, consignments, invoices, the changes feed and webhooks.',
    )
    .version(packageJson.version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addOption(new Option('--api-key <key>', 'API key (else COINVENTORY_API_KEY, else the saved profile)'))
    .addOption(new Option('--profile <name>', "profile saved by 'coinventory login' (default: default)"))
    .addOption(
      new Option('--base-url <url>', `API base URL (else COINVENTORY_BASE_URL, the profile's, ${DEFAULT_BASE_URL})`),
    )
    .option('--no-color', 'disable colour')
    .exitOverride()
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ outputError: (text, write) => write(style.red(text)) })
    .showHelpAfterError('(add --help for usage and examples)')
    .allowExcessArguments(false)
    .addHelpText('after', ROOT_HELP);

  registerMe(program);
  registerItems(program);
  registerReservations(program);
  registerCategories(program);
  registerWarehouses(program);
  registerConsignments(program);
  registerInvoices(program);
  registerChanges(program);
  registerWebhooks(program);
  registerListen(program);
  registerApi(program);
  registerAuth(program);
  registerCompletion(program);
  return program;
}

/** Runs the CLI; resolves to the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK;
  } catch (error) {
    // Commander has printed its own message (or the help). Help and --version exit 0; every other
    // commander error (unknown command or option, bad or missing value) is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    const style = createStyle(colourEnabled(process.stderr, process.env, !argv.includes('--no-color')));
    const { lines, exitCode } = reportError(error);
    const [first = '', ...rest] = lines;
    // Usage errors read like commander's own (`error: …`); failures of a request start with `Error:`.
    const prefix = error instanceof UsageError ? 'error:' : 'Error:';
    process.stderr.write(`${style.red(`${prefix} ${first}`)}\n${rest.map((line) => `${line}\n`).join('')}`);
    return exitCode;
  }
}

// A command lasts a second or so. The first request compiles undici's HTTP parser (WebAssembly, under Node's fetch),
// and V8's optimizing tier then recompiles it in the background: more CPU than the rest of the command, for code that
// runs a few times. The baseline compiler alone is plenty for that, and halves what a command costs to start. (Set
// before any request; WebAssembly compiled later reads it.)
setFlagsFromString('--liftoff-only');

// A reader that goes away (`coinventory items list --all | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.OK);
  throw error;
});

// Ctrl-C: leave the terminal clean (no half-drawn progress line) and exit 130, as shells expect (signals.ts).
handleInterrupts();

process.exitCode = await run(process.argv.slice(2));
