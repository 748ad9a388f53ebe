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

/** Fields every record has, shown in the line's head or not at all (a `pid` is logged on purpose: a cluster's). */
const HEAD = new Set(['level', 'time', 'msg', 'service']);

const paint = (colour: boolean, code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);

function value(field: unknown): string {
  if (typeof field === 'string') return /^[^\s"=]+$/.test(field) ? field : JSON.stringify(field);
  return JSON.stringify(field) ?? String(field);
}

/** One pino JSON line as text (a line that is not JSON passes through unchanged). */
export function formatLogLine(line: string, colour: boolean): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return line.endsWith('\n') ? line : `${line}\n`;
  const record = parsed as Record<string, unknown>;
  const level = LEVELS[Number(record.level)] ?? { label: String(record.level).padEnd(5), colour: '0' };
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const parts = [paint(colour, '90', time), paint(colour, level.colour, level.label), String(record.msg ?? '')];
  let stack = '';
  for (const [key, field] of Object.entries(record)) {
    if (HEAD.has(key)) continue;
    if (key === 'err' && typeof field === 'object' && field !== null) {
      // The message inline, the stack below; the rest (a PostgreSQL error's code, detail…) as err.<field>=.
      const { message, stack: trace, type: _type, ...rest } = field as Record<string, unknown>;
      parts.push(paint(colour, '90', `err=${value(message ?? '')}`));
      for (const [name, detail] of Object.entries(rest))
        parts.push(paint(colour, '90', `err.${name}=${value(detail)}`));
      if (typeof trace === 'string') stack = `\n${paint(colour, '90', trace.replace(/^/gm, '    '))}`;
      continue;
    }
    parts.push(paint(colour, '90', `${key}=${value(field)}`));
  }
  return `${parts.filter(Boolean).join(' ')}${stack}\n`;
}

/** pino's JSON output (one line or several) as readable lines. */
export function readableLines(chunk: string, colour: boolean): string {
  let text = '';
  for (const line of chunk.split('\n')) if (line) text += formatLogLine(line, colour);
  return text;
}
