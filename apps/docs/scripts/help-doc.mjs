// A command's --help read as documentation: its usage, description, tables of options and other two-column lists,
// prose and examples, so that the CLI and operator references are pages to read rather than terminal text. Pure
// functions of the help text; every layout a help uses falls back to prose, so no text is ever dropped.

/** Widest line of the references' code blocks: at a 1280-pixel window a block holds 624 px, 68 characters. */
export const HELP_CODE_WIDTH = 66;

/** The longest first column a two-column list may have; a longer "term" is a sentence, and the block prose. */
const MAX_TERM = 40;

const indentOf = (line) => /^ */.exec(line)[0].length;

/** Lines with their common indentation removed. */
function dedent(lines) {
  const filled = lines.filter((line) => line.trim() !== '');
  const cut = Math.min(...filled.map(indentOf));
  return lines.map((line) => line.slice(cut));
}

/**
 * A help text's parts: `usage` (one line), `description` (the paragraphs before the first section) and `sections` in
 * order, each `{ heading, lines }` (`heading` null for a paragraph of its own after the sections began). A section
 * is a block whose first line ends with `:` and whose other lines are indented; an indented block after a blank line
 * goes on with the section before it.
 */
export function parseHelp(text) {
  const parsed = { usage: '', description: [], sections: [] };
  for (const block of text.trimEnd().split(/\n[ \t]*\n/)) {
    const lines = block.split('\n');
    const first = lines[0] ?? '';
    const usage = /^Usage: (.*)$/.exec(first);
    const rest = lines.slice(1);
    const indented = rest.length > 0 && rest.every((line) => line.startsWith(' ') || line === '');
    const last = parsed.sections[parsed.sections.length - 1];
    if (usage && parsed.usage === '') parsed.usage = [usage[1], ...rest.map((line) => line.trim())].join(' ');
    else if (/^\S.*:$/.test(first) && indented) parsed.sections.push({ heading: first.slice(0, -1), lines: rest });
    else if (first.startsWith(' ') && last?.heading) last.lines.push('', ...lines);
    else if (parsed.sections.length === 0) parsed.description.push(...paragraphs(lines));
    else parsed.sections.push({ heading: null, lines });
  }
  return parsed;
}

/** Paragraphs of wrapped text: lines of one indentation joined; a change of indentation starts another. */
export function paragraphs(lines) {
  const out = [];
  let indent = -1;
  for (const line of lines) {
    if (line.trim() === '') {
      indent = -1;
      continue;
    }
    if (indentOf(line) !== indent) out.push(line.trim());
    else out[out.length - 1] += ` ${line.trim()}`;
    indent = indentOf(line);
  }
  return out;
}

/**
 * The rows `{ term, description }` of a two-column list (`  --flag <x>   what it does`, its description wrapped
 * under itself; or a term alone on its line with its description indented below it), or null when the lines are
 * not one. A term without two spaces after it is cut at the column the other descriptions start at.
 */
export function definitionRows(lines) {
  const body = dedent(lines.filter((line) => line.trim() !== ''));
  if (body.length === 0) return null;
  const entries = [];
  for (const line of body) {
    if (indentOf(line) === 0) entries.push({ first: line, more: [] });
    else if (entries.length > 0) entries[entries.length - 1].more.push(line.trim());
    else return null;
  }
  // Where descriptions start: a term followed by one space only (`130 interrupted`) is cut there too.
  const starts = entries.map(({ first }) => /^.*?\S {2,}(?=\S)/.exec(first)?.[0].length).filter(Boolean);
  const column = mostCommon(starts);
  const rows = [];
  for (const { first, more } of entries) {
    let split = /^(.*?\S) {2,}(\S.*)$/.exec(first)?.slice(1);
    if (!split && column && first[column - 1] === ' ' && first[column] !== ' ')
      split = [first.slice(0, column).trimEnd(), first.slice(column)];
    const [term, head] = split ?? [first, undefined];
    const description = [head, ...more].filter(Boolean).join(' ');
    if (term.length > MAX_TERM || description === '') return null;
    rows.push({ term, description });
  }
  return rows;
}

/** The value most often in a list (the first of those tied); undefined for an empty list. */
function mostCommon(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best), [undefined, 0])[0];
}

// --- Markdown ---------------------------------------------------------------------------------------------------

/** Plain text as Markdown that shows it as written: URLs and `--flags` in code, everything else escaped. */
export function inline(text) {
  return text
    .split(/(https?:\/\/[^\s'")]*[^\s'").,;:]|(?<![\w-])--?[a-z][\w-]*(?: <[^>\s]+>)?)/i)
    .map((part, i) => (i % 2 === 1 ? code(part) : markdownText(part)))
    .join('');
}

/** Text escaped for Markdown, a table cell and Vue's templates (`{{` would be read as an interpolation). */
const markdownText = (text) =>
  text
    .replace(/[\\`*_[\]<>|~#]/g, (char) => (char === '<' ? '&lt;' : char === '>' ? '&gt;' : `\\${char}`))
    .replace(/\{\{/g, '&#123;&#123;')
    .replace(/^([-+]|\d+\.) /, '$1\\ ');

/** A code span (pipes escaped, for tables). */
const code = (text) => `\`${text.replace(/\|/g, '\\|')}\``;

/** A two-column table in the reference tables' layout (`.api-fields`: the first column a third, long code wraps). */
export function definitionTable(heading, rows, link = () => undefined) {
  const lines = rows.map(({ term, description }) => {
    const target = link(term);
    const shown = target ? `[${code(term)}](${target})` : code(term);
    return `| ${shown} | ${inline(description)} |`;
  });
  return `<div class="api-fields">\n\n| ${heading} | Description |\n|---|---|\n${lines.join('\n')}\n\n</div>\n`;
}

/**
 * Words joined with spaces into lines of at most `width`, each after the first indented by `indent`; a word is kept
 * whole (inside quotes, `<…>` or `[…]` a space does not end it). `continuation` ends every line but the last.
 */
export function wrapLine(text, { width = HELP_CODE_WIDTH, indent = '  ', continuation = '' } = {}) {
  const words = text.match(/(?:'[^']*'|"(?:\\.|[^"])*"|<[^>]*>|\[[^\]]*\]|[^\s'"<[])+/g) ?? [];
  // In a command, an option stays on the line of its value (`--value 45`).
  if (continuation) {
    for (let i = 0; i < words.length - 1; i += 1)
      if (/^-/.test(words[i]) && !/^(-|\||>|&&|;)/.test(words[i + 1]))
        words.splice(i, 2, `${words[i]} ${words[i + 1]}`);
  }
  const lines = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${word}${continuation}`.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(last === undefined ? word : `${indent}${word}`);
  }
  return lines.join(`${continuation}\n`);
}

/** Examples as shell lines (no `$ ` prompt), each wrapped with ` \` continuations; a trailing comment goes above. */
export function examplesBlock(lines) {
  const commands = lines
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const command = line.trim().replace(/^\$ /, '');
      const comment = / {2,}(# .*)$/.exec(command);
      const bare = comment ? command.slice(0, comment.index) : command;
      return [...(comment ? [comment[1]] : []), wrapLine(bare, { continuation: ' \\' })];
    });
  return `\`\`\`sh\n${commands.join('\n')}\n\`\`\`\n`;
}

/** The usage line as a code block, wrapped to the column. */
export const usageBlock = (usage) => `\`\`\`text\n${wrapLine(usage, { indent: '    ' })}\n\`\`\`\n`;

/**
 * One section of a help as Markdown under a heading of `level`: a table when its lines are a two-column list, a
 * code block of examples, else prose. `link(term)` gives a table row's link (a command's page), if any.
 */
export function renderSection({ heading, lines }, { level, link }) {
  const title = heading ? `${'#'.repeat(level)} ${inline(heading)}\n\n` : '';
  if (heading && /^Examples?\b/.test(heading)) return `${title}${examplesBlock(dedent(lines))}`;
  const rows = heading ? definitionRows(lines) : null;
  if (rows) {
    return `${title}${definitionTable(columnName(heading), rows, link)}`;
  }
  return `${title}${paragraphs(lines.length ? dedent(lines) : lines)
    .map(inline)
    .join('\n\n')}\n`;
}

/** What the first column of a section's table holds, from the section's heading. */
function columnName(heading) {
  if (/option/i.test(heading)) return 'Option';
  if (/^Exit codes/.test(heading)) return 'Code';
  if (/^(Environment|Configuration)/.test(heading)) return 'Variable';
  if (/^[A-Z][a-z]+$/.test(heading)) return heading.replace(/(?<=s)es$|s$/, '');
  return 'Name';
}
