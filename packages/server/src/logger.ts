import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout. The Authorization header never reaches a log line: nothing logs request headers. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'coinventory-server' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], remove: true },
  });
}
