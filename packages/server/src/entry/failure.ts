import { DataDirBusyError } from '../db/data-dir-lock.js';
import { DatabaseUnavailableError, explainDatabaseFailure, poolTarget } from '../db/unavailable.js';
import { ConfigError } from '../env.js';
import { EXIT, usageLine } from '../operator/index.js';
import { ListenError } from './listen-error.js';
import { UsageError } from './usage.js';

export interface FailureReport {
  /** What to print on stderr (without the final newline). */
  text: string;
  exitCode: number;
}

/** The passwords of the database URLs in the environment: never printed, not even in a stack trace. */
function secrets(env: NodeJS.ProcessEnv): string[] {
  return [env.DATABASE_URL, env.DATABASE_DIRECT_URL].flatMap((url) => {
    try {
      const password = url ? new URL(url).password : '';
      return password ? [password, decodeURIComponent(password)] : [];
    } catch {
      return [];
    }
  });
}

export const redact = (text: string, env: NodeJS.ProcessEnv = process.env) =>
  secrets(env).reduce((redacted, secret) => redacted.split(secret).join('***'), text);

/**
 * How the binary reports an error that ended it: an expected failure as one line, `coinventory-server: <what went
 * wrong>; <what to do>`, with its exit code (spec.ts's EXIT); anything else, a bug, with its stack trace and exit 1.
 */
export function failureReport(error: unknown, env: NodeJS.ProcessEnv = process.env): FailureReport {
  const line = (text: string, exitCode: number) => ({ text: redact(`coinventory-server: ${text}`, env), exitCode });
  // A port in use or refused: nothing was created (the message names the setting).
  if (error instanceof ListenError) return line(error.message, EXIT.failure);
  if (error instanceof ConfigError) return line(error.message, EXIT.usage);
  if (error instanceof UsageError) return { text: usageLine(error.message, error.fix), exitCode: EXIT.usage };
  if (error instanceof DataDirBusyError) {
    const fix = 'stop that process, or set COINVENTORY_DATA_DIR to another directory';
    return line(`${error.message.replace(/\.$/, '')}; ${fix}`, EXIT.unavailable);
  }
  // What a start or a command could not explain where it happened: on DATABASE_URL, as its failure.
  const explained =
    error instanceof DatabaseUnavailableError
      ? error
      : env.DATABASE_URL
        ? explainDatabaseFailure(error, poolTarget(env.DATABASE_URL))
        : undefined;
  if (explained) return line(explained.message, EXIT.unavailable);
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return line(`unexpected error (a bug: please report it with what follows)\n${text}`, EXIT.failure);
}
