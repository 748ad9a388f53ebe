/** A fenced code block of a page, with the `<!-- sample: … -->` directive written right before it, if any. */
export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  directive: Directive;
}

export type Directive =
  /**
   * Runs and must exit with `exit` (0 unless `exit N` is written). Every HTTP answer it receives must be below 400
   * unless its status is listed after `http` (`http 401 404`), and each listed status must be received at least once.
   */
  | { kind: 'run'; exit: number; http: number[] }
  /** Starts a server (`server`); with `server; postgres`, on a PostgreSQL server whose URL replaces the written one. */
  | { kind: 'server'; postgres: boolean }
  /**
   * A webhook receiver (`receiver`, a `ts` block): run with its own `PORT` and an endpoint's secret, it must verify
   * and answer the live server's deliveries (see receiver-sample.ts).
   */
  | { kind: 'receiver' }
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid'; text: string };

/** Languages whose blocks are samples and run; the others are output or configuration. */
export const RUNNABLE = new Set(['bash', 'ts']);
export const NOT_RUN = new Set(['json', 'text', 'http', 'ini', 'yaml']);

const DIRECTIVE = /^<!--\s*sample:\s*(.*?)\s*-->$/;

/** `exit N`, `http S [S…]` or both, separated by `;`; or `server` (`server; postgres`); `receiver`; `skip (reason)`. */
function parseDirective(text: string | undefined): Directive {
  if (text === undefined) return { kind: 'run', exit: 0, http: [] };
  if (text === 'server') return { kind: 'server', postgres: false };
  if (text === 'server; postgres') return { kind: 'server', postgres: true };
  if (text === 'receiver') return { kind: 'receiver' };
  const skip = /^skip \((.+)\)$/.exec(text);
  if (skip?.[1]?.trim()) return { kind: 'skip', reason: skip[1].trim() };
  const run: Directive = { kind: 'run', exit: 0, http: [] };
  for (const part of text.split(';').map((piece) => piece.trim())) {
    const exit = /^exit (\d+)$/.exec(part);
    const http = /^http((?: [45]\d\d)+)$/.exec(part);
    if (exit) run.exit = Number(exit[1]);
    else if (http?.[1]) run.http = http[1].trim().split(' ').map(Number);
    else return { kind: 'invalid', text };
  }
  return run;
}

/** Whether a directive was written at all (a plain run is the same as none). */
export const isPlainRun = (directive: Directive): boolean =>
  directive.kind === 'run' && directive.exit === 0 && directive.http.length === 0;

/** Every fenced block of a Markdown page (``` fences; VitePress's `{1,3}` and `[title]` info is ignored). */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '```', info = ''] = open;
    const lang = info.trim().split(/[\s{[:]/)[0] ?? '';
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? '').trim().startsWith(fence)) end += 1;
    const code = lines
      .slice(i + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    let before = i - 1;
    while (before >= 0 && (lines[before] ?? '').trim() === '') before -= 1;
    const directive = DIRECTIVE.exec((lines[before] ?? '').trim())?.[1];
    blocks.push({ file, line: i + 1, lang, code, directive: parseDirective(directive) });
    i = end;
  }
  return blocks;
}
