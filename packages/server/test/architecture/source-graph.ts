import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The server's sources as the architecture tests read them, without a database: the files, their relative imports
 * and the cycles those make.
 */

export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
export const MODULES = join(SRC, 'modules');

/** The .ts (declarations aside) and .sql files under a folder. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|sql)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every TypeScript source of src. */
export const sourceFiles = (): string[] => filesUnder(SRC).filter((file) => file.endsWith('.ts'));

/** A path relative to src, with forward slashes whatever the platform. */
export const fromSrc = (file: string): string => relative(SRC, file).split(sep).join('/');

export const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** A relative import or re-export of a source file: the file it is in, and the file it names. */
export interface SourceImport {
  file: string;
  target: string;
}

/** A file's relative imports, re-exports and dynamic imports (type-only ones too: they are a dependency as well). */
export function importsOf(file: string): SourceImport[] {
  const found: SourceImport[] = [];
  const add = (specifier: ts.Expression | undefined) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    found.push({ file, target: resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts')) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

/** The graph of a set of imports: each file and the files it imports. */
export function graphOf(imports: readonly SourceImport[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of imports) edges.set(file, (edges.get(file) ?? new Set()).add(target));
  return edges;
}

/** A cycle in a graph, as the nodes along it (the first repeated last), or null: a depth-first search. */
export function cycleIn(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...edges.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
