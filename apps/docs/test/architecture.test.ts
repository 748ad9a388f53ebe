// The architecture page's trees (site/contributing/architecture.md, "The tree") against the real folders: every
// folder and file they name exists, every folder of packages/server/src is in the server's tree, and every top-level
// folder of the other packages' src in theirs. So the map cannot fall behind the code without a test saying so.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const PAGE = join(REPO, 'apps/docs/site/contributing/architecture.md');

/** A tree as the page writes it: its root, the folders it lists and the files it names, relative to the root. */
interface Tree {
  root: string;
  folders: Set<string>;
  files: Set<string>;
}

/** A file the text names: `store.ts`, `rate-limit-admit.sql`, `middleware/lifecycle.ts`. */
const FILE = /(?<![\w./-])((?:[\w-]+\/)*[\w.-]+\.(?:ts|sql))(?![\w/-])/g;
const FOLDER = /^[\w.-]+\/$/;

/**
 * Reads one tree. A line indented two spaces deeper than the entry above it at most is an entry: a folder (`name/`)
 * or a list of files (`a.ts, b.ts`) at that depth. A line indented further continues the entry's description.
 * Files a description names are relative to the entry's folder.
 */
function parseTree(block: string): Tree {
  const [first = '', ...lines] = block.split('\n').filter((line) => line.trim() !== '');
  const tree: Tree = { root: first.trim(), folders: new Set(), files: new Set() };
  /** The folder at each depth: stack[0] is the root (''). */
  const stack: string[] = [''];
  let depth = 0;
  let folder = '';
  const named = (text: string, base: string) => {
    for (const match of text.matchAll(FILE)) tree.files.add(posix.join(base, match[1] ?? ''));
  };
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    const isEntry = indent % 2 === 0 && indent / 2 <= depth + 1;
    if (!isEntry) {
      named(line, folder);
      continue;
    }
    const entryDepth = indent / 2;
    const parent = stack[entryDepth - 1];
    if (parent === undefined) throw new Error(`tree line without a parent: ${line}`);
    const [name = '', ...rest] = line.trim().split(/\s+/);
    if (FOLDER.test(name)) {
      folder = posix.join(parent, name.slice(0, -1));
      tree.folders.add(folder);
      stack[entryDepth] = folder;
      stack.length = entryDepth + 1;
      depth = entryDepth;
      named(rest.join(' '), folder);
    } else {
      // Files of the folder above: the entry's own names and those its description mentions.
      folder = parent;
      stack.length = entryDepth;
      depth = entryDepth - 1;
      named(line, parent);
    }
  }
  return tree;
}

/** The trees of the page's "The tree" section: its `text` blocks, a tree starting at each line that is not indented. */
function trees(): Tree[] {
  const page = readFileSync(PAGE, 'utf8');
  const start = page.indexOf('\n## The tree');
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```text\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? '').split(/\n(?=\S)/))
    .map(parseTree);
}

/** Every folder under `dir`, relative to it; `depth` 1 is the top level only. */
function foldersUnder(dir: string, depth = Number.POSITIVE_INFINITY, prefix = ''): string[] {
  if (depth === 0) return [];
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = posix.join(prefix, entry.name);
      return [path, ...foldersUnder(dir, depth - 1, path)];
    });
}

const PACKAGES = readdirSync(join(REPO, 'packages')).filter((name) => existsSync(join(REPO, 'packages', name, 'src')));

describe('the architecture page', () => {
  const all = trees();
  const byRoot = new Map(all.map((tree) => [tree.root, tree]));

  it('has a tree for the src of every package', () => {
    expect([...byRoot.keys()].sort()).toEqual(PACKAGES.map((name) => `packages/${name}/src/`).sort());
  });

  it('names only folders and files that exist', () => {
    const missing = all.flatMap((tree) =>
      [...tree.folders, ...tree.files]
        .filter((path) => !existsSync(join(REPO, tree.root, path)))
        .map((path) => `${tree.root}${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("lists every folder of the server's src, and every top-level folder of the other packages' src", () => {
    const unlisted = all.flatMap((tree) => {
      const depth = tree.root === 'packages/server/src/' ? Number.POSITIVE_INFINITY : 1;
      return foldersUnder(join(REPO, tree.root), depth)
        .filter((folder) => !tree.folders.has(folder))
        .map((folder) => `${tree.root}${folder}/`);
    });
    expect(unlisted).toEqual([]);
  });

  it('reads the trees it checks (the server: its module folders and their notable files)', () => {
    const server = byRoot.get('packages/server/src/');
    expect(server?.folders).toContain('modules/marketplace/adapters');
    expect(server?.folders).toContain('http/middleware');
    for (const file of ['polling-loop.ts', 'modules/marketplace/gate.ts', 'modules/items/export.ts'])
      expect(server?.files).toContain(file);
  });
});
