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
  | { kind: 'run' }
  | { kind: 'exit'; code: number }
  | { kind: 'server' }
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid'; text: string };

/** Languages whose blocks are samples and run; the others are output or configuration. */
export const RUNNABLE = new Set(['bash', 'ts']);
export const NOT_RUN = new Set(['json', 'text', 'http', 'ini', 'yaml']);

const DIRECTIVE = /^<!--\s*sample:\s*(.*?)\s*-->$/;

function parseDirective(text: string | undefined): Directive {
  if (text === undefined) return { kind: 'run' };
  const exit = /^exit (\d+)$/.exec(text);
  if (exit) return { kind: 'exit', code: Number(exit[1]) };
  if (text === 'server') return { kind: 'server' };
  const skip = /^skip \((.+)\)$/.exec(text);
  if (skip?.[1]?.trim()) return { kind: 'skip', reason: skip[1].trim() };
  return { kind: 'invalid', text };
}

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
