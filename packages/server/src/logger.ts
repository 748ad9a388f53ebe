import pino, { type Logger } from 'pino';
import { readableLines } from './log-format.js';
import { LogOutput, TurnBatchedSink } from './log-output.js';

export type { Logger };

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Colour on a terminal unless NO_COLOR is set (https://no-color.org). */
const colourFor = (out: NodeJS.WriteStream) => out.isTTY === true && !process.env.NO_COLOR;

const BASE = { service: 'coinventory-server' };

/**
 * The process's one stdout output, once a logger writes there: one bound and one count of dropped lines however many
 * loggers write there, each in its own format (its destination).
 */
let stdoutOutput: LogOutput | undefined;

/** Log lines this process dropped because stdout's reader did not keep up or had gone (see log-output.ts). */
export const droppedLogLines = (): number => stdoutOutput?.dropped ?? 0;

/**
 * Logs on stdout: JSON lines, or readable ones for a person at a terminal (LOG_FORMAT, see log-format.ts). The
 * Authorization header never reaches a log line: nothing logs request headers. Writing never waits for stdout's
 * reader: a stalled one gets lines dropped and counted, not a stalled server (log-output.ts).
 */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const out = process.stdout;
  const readable = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  const colour = colourFor(out);
  const render = readable ? (line: string) => readableLines(line, colour) : (line: string) => line;
  stdoutOutput ??= new LogOutput(new TurnBatchedSink(out), { base: BASE, render });
  return pino(
    {
      level,
      base: BASE,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], remove: true },
    },
    stdoutOutput.destination(render),
  );
}
