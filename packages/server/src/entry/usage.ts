import { describeSettings } from '../env.js';
import { COMMANDS, EXIT_CODES, NOUNS } from '../operator/index.js';

/** The environment variables, one per line with its default, wrapped under the name. */
function configurationHelp(): string {
  return describeSettings()
    .map(({ name, defaultValue, description }) => {
      const head = `  ${name}${defaultValue === undefined ? '' : ` (${defaultValue === '' ? 'empty' : defaultValue})`}`;
      return `${head}\n${wrap(description, 6, 80)}`;
    })
    .join('\n');
}

/** Words of `text` on lines of at most `width` columns, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}

/** The exit codes, one a line: the same table as the operator guide's. */
export const EXIT_CODES_HELP = `Exit codes:\n${EXIT_CODES.map(([code, meaning]) => `  ${code}  ${wrap(meaning, 5, 110).trimStart()}`).join('\n')}`;

export const USAGE = `Usage: coinventory-server [command] [options]

Commands:
  start              Start the HTTP server (the default). Applies pending migrations first. On an empty
                     embedded database it also creates a demo organization and prints an API key once.
  sync-worker        Run only the background workers (marketplace sync, webhooks, valuations, reservation expiry) for SYNC_WORKER=off.
${COMMANDS.map((c) => `  ${c.name.padEnd(17)}  ${c.summary}`).join('\n')}

Run "coinventory-server <command> --help" for a command's options, "coinventory-server <group> --help" for a
group's commands (${NOUNS.join(', ')}). The operator commands take --json.

Operator commands work against DATABASE_URL, or the embedded database in COINVENTORY_DATA_DIR, also while a
server is running on it (they go through the server's operator socket).

Errors are one line on stderr, "coinventory-server: <what went wrong>; <what to do>"; an unexpected failure
(a bug) also prints its stack trace.

${EXIT_CODES_HELP}

Configuration (environment variables, with their defaults):
${configurationHelp()}`;

/** The usage of a noun (`coinventory-server listing --help`): its commands, or undefined for a word that is none. */
export function nounUsage(noun: string): string | undefined {
  const commands = COMMANDS.filter((c) => c.name.startsWith(`${noun} `));
  if (commands.length === 0) return undefined;
  const width = Math.max(...commands.map((c) => c.name.length - noun.length - 1));
  return `Usage: coinventory-server ${noun} <command> [options]

Commands:
${commands.map((c) => `  ${c.name.slice(noun.length + 1).padEnd(width)}  ${c.summary}`).join('\n')}

Run "coinventory-server ${noun} <command> --help" for a command's options and an example; "coinventory-server
--help" for every command and the configuration.`;
}

export const START_USAGE = `Usage: coinventory-server start

Starts the HTTP server; also what "coinventory-server" without a command does. It takes no options: it is
configured by the environment (listed by "coinventory-server --help").

It takes its port (PORT on HOST) first: if that fails (in use, not permitted) it says so in one line and
exits 1 before opening the database. Pending migrations are applied next. On an empty embedded database (no
DATABASE_URL) it creates a demo organization and prints its API key once, on stderr. It logs on stdout (JSON
lines, or readable ones on a terminal: LOG_FORMAT), "listening" once it serves requests (any sent before wait). SIGTERM or SIGINT: it stops
accepting, finishes in-flight requests (up to SHUTDOWN_TIMEOUT_MS) and exits 0. WEB_CONCURRENCY above 1 runs
that many server processes on the port (needs DATABASE_URL).

Exit codes: 0 stopped cleanly, 1 failure (the port, or unexpected), 2 invalid configuration, 6 database
unavailable (unreachable, login refused, missing; the data directory in use or not writable).`;

export const SYNC_WORKER_USAGE = `Usage: coinventory-server sync-worker

Runs only the background workers, for servers started with SYNC_WORKER=off: the marketplace sync worker
delivers the queued listing changes to the marketplace (the SYNC_* and MARKETPLACE_* settings), and the
webhook worker sends the queued webhook deliveries (the WEBHOOK_* settings), the valuation scheduler runs the
valuations organizations scheduled (VALUATION_POLL_MS), and the reservation expiry gives back the units of holds
past their expiresAt (RESERVATION_EXPIRY_INTERVAL_MS); all are listed by
"coinventory-server --help". It takes no options. Run as many as you like against one DATABASE_URL: a
listing, or a webhook endpoint, is served by one worker at a time. On the embedded database it needs the data directory to
itself, so it cannot run beside a server there. SIGTERM or SIGINT: it finishes its deliveries and exits 0.

Exit codes: 0 stopped cleanly, 1 failure, 2 invalid configuration, 6 database unavailable.`;

/** A mistake in the arguments of `start` or `sync-worker`: what went wrong, and what to do (`fix`). */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}
