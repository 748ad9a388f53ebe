// Spreadsheet formula injection: a CSV cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read
// as a formula by Excel, LibreOffice and Google Sheets, so a title such as `=HYPERLINK("http://…")` would run when a
// dealer opens an export. The writer neutralises such a text cell the OWASP way, with a leading `'`; the reader
// removes it again, so a file Coinventory wrote imports back exactly. Both directions live here, together.

/** The characters that make a spreadsheet read a cell as a formula (OWASP's list). */
export const CSV_FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;

const TRIGGER = `[${CSV_FORMULA_TRIGGERS.join('').replace('-', '\\-')}]`;
/** Text the writer prefixes: a trigger first, or after quotes it already has (so the mapping can be undone). */
const ESCAPES = new RegExp(`^'*${TRIGGER}`);
/** Text the writer has prefixed: one or more quotes, then a trigger. */
const ESCAPED = new RegExp(`^'+${TRIGGER}`);

/**
 * A text value as a CSV cell no spreadsheet runs: one `'` added before text that starts with a trigger character,
 * or with quotes and then one (`'=x` becomes `''=x`, so every prefixed cell has exactly one quote too many and
 * `unescapeCsvFormula` gives back every text exactly). Other text is unchanged. For text only: numbers are written
 * as they are (`-250` is a number to a spreadsheet, not a formula).
 */
export const escapeCsvFormula = (text: string): string => (ESCAPES.test(text) ? `'${text}` : text);

/**
 * The text a CSV cell written by `escapeCsvFormula` holds: one `'` removed from a cell of one or more quotes then a
 * trigger character; any other cell as it is.
 */
export const unescapeCsvFormula = (cell: string): string => (ESCAPED.test(cell) ? cell.slice(1) : cell);
