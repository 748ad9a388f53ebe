/** Formatting shared by the table and detail views: money, dates, colour, widths. */

export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    text ? `\u001b[${open}m${text}\u001b[${close}m` : text;
const plain = (text: string): string => text;

export function createStyle(enabled: boolean): Style {
  if (!enabled) return { enabled, bold: plain, dim: plain, red: plain, yellow: plain, green: plain };
  return { enabled, bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39) };
}

/**
 * Whether to colour a stream: only a terminal, and never with `NO_COLOR` set to anything non-empty
 * (https://no-color.org), `TERM=dumb`, or `--no-color`.
 */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, flag: boolean): boolean {
  if (!flag || !stream.isTTY) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

/** What an empty (null) value shows as in tables and detail views. */
export const NONE = '-';

/** An integer with thousands separators: 2147483647 → `2,147,483,647` (no Intl: loading ICU costs start time). */
export function groupDigits(value: number | bigint): string {
  return value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Integer cents as US dollars: 123450 → `$1,234.50`. Exact for every integer (BigInt, no floating point). */
export function formatMoney(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return NONE;
  const value = BigInt(cents);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const dollars = groupDigits(abs / 100n);
  const rest = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}$${dollars}.${rest}`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * An ISO date-time in the local time zone (`TZ` honoured): `2026-11-22 10:00`, or with `seconds` (events, where the
 * minute is too coarse) `2026-11-22 10:00:05`. Unparseable text is shown as is.
 */
export function formatDate(iso: string | null | undefined, precision: 'minutes' | 'seconds' = 'minutes'): string {
  if (iso === null || iso === undefined) return NONE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const minutes = `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
  return precision === 'seconds' ? `${minutes}:${pad2(date.getSeconds())}` : minutes;
}

/** Someone an API object names: a consignment's consignor, an invoice's customer. */
export interface Person {
  id: string | null;
  name: string | null;
  email: string | null;
}

/** A person in a table cell: the name, else the email. */
export function personName(person: Person | null): string {
  return person?.name ?? person?.email ?? NONE;
}

/** A person in a detail view, with what is known of them: `Name <email> (id)`. */
export function formatPerson(person: Person | null): string {
  const { name, email, id } = person ?? {};
  return [name, email ? `<${email}>` : undefined, id ? `(${id})` : undefined].filter(Boolean).join(' ') || NONE;
}

/** Basis points as a percentage: 1250 → `12.5%`. */
export function formatBps(bps: number | null | undefined): string {
  if (bps === null || bps === undefined) return NONE;
  return `${(bps / 100).toString()}%`;
}

export function formatText(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return NONE;
  return String(value);
}

// C0 and C1 control characters (ESC among them): never sent raw to a terminal from API data.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/** One line of text safe for a table cell: control characters (newlines, tabs, escapes) become spaces. */
export function cell(text: string): string {
  return text.replace(CONTROL, ' ');
}

/** Text safe for a detail view: newlines kept, other control characters replaced. */
export function multiline(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_BUT_NEWLINE, ' ');
}

/** Columns a code point takes in a terminal: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
function codePointWidth(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** The width of `text` in terminal columns (text without escape sequences). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += codePointWidth(char.codePointAt(0) ?? 0);
  return width;
}

/** `text` cut to at most `width` columns, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = codePointWidth(char.codePointAt(0) ?? 0);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns. */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}
