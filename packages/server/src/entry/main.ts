#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { type Env, loadEnv } from '../env.js';
import { EXIT, isOperatorCommand, runOperatorCommand, unknownCommandLine } from '../operator/index.js';
import { failureReport } from './failure.js';
import { nounUsage, START_USAGE, SYNC_WORKER_USAGE, USAGE, UsageError } from './usage.js';

// The server and the sync worker are loaded only when started (the HTTP stack, metrics, the logger): an operator
// command, which most often only talks to a running server's socket, starts in a fraction of the time without them.
const logger = async (env: Env) => (await import('../logger.js')).createLogger(env.LOG_LEVEL, env.LOG_FORMAT);

const CONFIGURED = 'it is configured by environment variables, listed by "coinventory-server --help"';

/** The binary: routes its first argument to a command, and turns expected failures into one line and an exit code. */
async function main(argv: string[]): Promise<number | undefined> {
  const [first = 'start', ...rest] = argv;
  if (first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (first === 'start') {
    if (rest.includes('-h') || rest.includes('--help')) {
      process.stdout.write(`${START_USAGE}\n`);
      return EXIT.ok;
    }
    if (rest.length > 0) throw new UsageError(`start takes no arguments (got "${rest.join(' ')}")`, CONFIGURED);
    const env = loadEnv();
    const { start } = await import('./start.js');
    await start(env, await logger(env));
    return undefined;
  }
  if (first === 'sync-worker') {
    if (rest.includes('-h') || rest.includes('--help')) {
      process.stdout.write(`${SYNC_WORKER_USAGE}\n`);
      return EXIT.ok;
    }
    if (rest.length > 0) throw new UsageError(`sync-worker takes no arguments (got "${rest.join(' ')}")`, CONFIGURED);
    const env = loadEnv();
    const { syncWorker } = await import('./sync-worker.js');
    await syncWorker(env, await logger(env));
    return undefined;
  }
  if (!isOperatorCommand(argv)) {
    // A noun alone, with --help, or with a command it does not have: its own commands rather than all of them.
    const noun = nounUsage(first);
    const [second] = rest;
    if (noun !== undefined && (second === '-h' || second === '--help' || second === 'help')) {
      process.stdout.write(`${noun}\n`);
      return EXIT.ok;
    }
    process.stderr.write(`${unknownCommandLine(argv, ['start', 'sync-worker', 'help'])}\n`);
    return EXIT.usage;
  }
  // An operator command lasts a second or two. One that opens the embedded database itself compiles PostgreSQL's
  // WebAssembly, and V8's optimizing tier would recompile its hot parts in the background: more CPU than the command's
  // own work. The baseline compiler alone is enough for one command. (The server, which runs for days, keeps both.)
  setFlagsFromString('--liftoff-only');
  const output = await runOperatorCommand(argv, loadEnv());
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  return output.exitCode;
}

main(process.argv.slice(2))
  .then((code) => {
    if (code !== undefined) process.exitCode = code;
  })
  .catch((error: unknown) => {
    // Expected failures (a port, the configuration, the database) in one line; a bug with its stack trace.
    const { text, exitCode } = failureReport(error);
    process.stderr.write(`${text}\n`);
    process.exit(exitCode);
  });
