/**
 * Readable log lines for a person at a terminal: `12:04:05.120 INFO  listening baseUrl=http://…`, the level coloured,
 * an error's stack on the lines below. pino writes each record as one JSON line; this turns it back into text. Logs
 * that go to a file or a collector stay JSON (LOG_FORMAT=auto), which is what those read.
 */

const LEVELS: Record<number, { label: string; colour: string }> = {
  10: { label: 'TRACE', colour: '90' },
  20: { label: 'DEBUG', colour: '36' },
  30: { label: 'INFO ', colour: '32' },
  40: { label: 'WARN ', colour: '33' },
  50: { label: 'ERROR', colour: '31' },
  60: { label: 'FATAL', colour: '41;97' },
};

/** Fields every record has, shown in the line's head or not at all. */
const HEAD = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

const paint = (colour: boolean, code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);

function value(field: unknown): string {
  if (typeof field === 'string') return /^[^\s"=]+$/.test(field) ? field : JSON.stringify(field);
  return JSON.stringify(field) ?? String(field);
}

/** One pino JSON line as text (a line that is not JSON passes through unchanged). */
export function formatLogLine(line: string, colour: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVELS[Number(record.level)] ?? { label: String(record.level).padEnd(5), colour: '0' };
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const parts = [paint(colour, '90', time), paint(colour, level.colour, level.label), String(record.msg ?? '')];
  let stack = '';
  for (const [key, field] of Object.entries(record)) {
    if (HEAD.has(key)) continue;
    if (key === 'err' && typeof field === 'object' && field !== null) {
      const err = field as { message?: unknown; stack?: unknown };
      parts.push(paint(colour, '90', `err=${value(err.message ?? '')}`));
      if (typeof err.stack === 'string') stack = `\n${paint(colour, '90', err.stack.replace(/^/gm, '    '))}`;
      continue;
    }
    parts.push(paint(colour, '90', `${key}=${value(field)}`));
  }
  return `${parts.filter(Boolean).join(' ')}${stack}\n`;
}

/** A pino destination writing readable lines to `out`. */
export function readableLogStream(out: NodeJS.WritableStream, colour: boolean): { write(line: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(formatLogLine(line, colour));
    },
  };
}
