import { readFileSync } from 'node:fs';

/**
 * The code blocks of a guide that a test runs as written, each marked by a comment among those right before its fence:
 * `<!-- new-operator: install -->`. (The docs' samples test reads the `<!-- sample: … -->` comment next to it.)
 * @param {string} file
 * @param {string} marker the comment's word: `new-operator`
 * @returns {Map<string, string>} each block's code by its name, in the order of the page
 */
export function markedBlocks(file, marker) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const pattern = new RegExp(`^<!--\\s*${marker}:\\s*([\\w-]+)\\s*-->$`);
  /** @type {Map<string, string>} */
  const blocks = new Map();
  /** @type {string[]} */
  let pending = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').trim();
    const name = pattern.exec(line)?.[1];
    if (name) {
      pending.push(name);
      continue;
    }
    if (line.startsWith('<!--') || line === '') continue;
    if (pending.length > 0 && line.startsWith('```')) {
      const end = lines.findIndex((next, j) => j > i && next.trim() === '```');
      if (end < 0) throw new Error(`${file}:${i + 1}: the block marked ${pending.join(', ')} is not closed`);
      for (const named of pending) {
        if (blocks.has(named)) throw new Error(`${file}: two blocks marked "${marker}: ${named}"`);
        blocks.set(named, lines.slice(i + 1, end).join('\n'));
      }
      i = end;
    } else if (pending.length > 0) {
      throw new Error(`${file}:${i + 1}: "${marker}: ${pending.join(', ')}" is not right before a code block`);
    }
    pending = [];
  }
  return blocks;
}
