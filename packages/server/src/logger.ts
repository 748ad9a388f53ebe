import pino, { type Logger } from 'pino';
import { readableLogStream } from './log-format.js';

export type { Logger };

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Colour on a terminal unless NO_COLOR is set (https://no-color.org). */
const colourFor = (out: NodeJS.WriteStream) => out.isTTY === true && !process.env.NO_COLOR;

/**
 * Logs on stdout: JSON lines, or readable ones for a person at a terminal (LOG_FORMAT, see log-format.ts). The
 * Authorization header never reaches a log line: nothing logs request headers.
 */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const out = process.stdout;
  const readable = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  return pino(
    {
      level,
      base: { service: 'coinventory-server' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], remove: true },
    },
    // Through pino's own synchronous destination, as JSON lines go: a line logged just before the process exits
    // ("stopped") is written, not left in a pipe's buffer.
    readable ? readableLogStream(pino.destination({ dest: 1, sync: true }), colourFor(out)) : undefined,
  );
}
