import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';

/**
 * One owner per table, and modules that meet only at their index (issue 36). Read from the sources, without a
 * database: the migrations name the tables, OWNERS names who writes each, and every SQL text of src/modules and
 * src/demo (postgres.js tagged templates, .sql files) is searched for the tables it writes.
 */

/** The one module that writes each table; every other module calls its index, or subscribes to its changes. */
const OWNERS: Readonly<Record<string, string>> = {
  organizations: 'workspaces',
  users: 'workspaces',
  memberships: 'workspaces',
  api_keys: 'access',
  rate_limit_slots: 'access',
  rate_limit_state: 'access',
  items: 'items',
  item_images: 'items',
  categories: 'categories',
  warehouses: 'warehouses',
  zones: 'warehouses',
  consignors: 'consignments',
  consignments: 'consignments',
  customers: 'invoices',
  invoices: 'invoices',
  invoice_lines: 'invoices',
  invoice_payments: 'invoices',
  change_feeds: 'changes',
  changes: 'changes',
  idempotency_keys: 'idempotency',
  marketplace_listings: 'marketplace',
  marketplace_sync_jobs: 'marketplace',
  marketplace_gates: 'marketplace',
  marketplace_local_deliveries: 'marketplace',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  comparable_sales: 'valuations',
  price_guide_entries: 'valuations',
  spot_prices: 'valuations',
  valuations: 'valuations',
  valuation_comps: 'valuations',
  valuation_policies: 'valuations',
};

/**
 * The demo's seed loads the catalog's rows table by table with one multi-row INSERT of its own (demo/seed.ts), not
 * through the owners, and dates its organization back: the tables it still writes so. Every other table it fills
 * (its organization and people, its key, the valuations) goes through the owner's index.
 */
const DEMO_BULK_LOADED = new Set([
  'organizations',
  'items',
  'item_images',
  'categories',
  'warehouses',
  'zones',
  'consignors',
  'consignments',
  'customers',
  'invoices',
  'invoice_lines',
  'invoice_payments',
  'comparable_sales',
  'price_guide_entries',
  'spot_prices',
  'marketplace_listings',
]);

/**
 * Writes by a module that does not own the table, which are yet to move to the owner: this list only shrinks (an
 * entry no longer found fails too). An organization's default warehouse and receiving zone are made in the statement
 * that creates it (workspaces/store.ts); workspaces cannot call warehouses (warehouses → imports → workspaces), so
 * provisioning has to call both from above, or warehouses subscribe to the creation.
 */
const NOT_YET_MOVED = new Set(['workspaces writes warehouses', 'workspaces writes zones']);

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const MODULES = join(SRC, 'modules');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|sql)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Who a file belongs to: its module's folder name, `demo`, or null (the layers below and above the modules). */
function ownerOf(file: string): string | null {
  const path = relative(SRC, file).split(sep);
  if (path[0] === 'modules' && path.length > 2) return path[1] ?? null;
  return path[0] === 'demo' ? 'demo' : null;
}

/** The tables the migrations leave, in the order they create them. */
function tablesOfMigrations(): string[] {
  const tables = new Set<string>();
  const statement =
    /\b(create\s+(?:unlogged\s+)?table(?:\s+if\s+not\s+exists)?|drop\s+table(?:\s+if\s+exists)?|alter\s+table(?:\s+if\s+exists)?\s+(\w+)\s+rename\s+to)\s+(\w+)/gi;
  for (const { up } of migrations) {
    for (const [, verb = '', renamed, name = ''] of up.matchAll(statement)) {
      const table = name.toLowerCase();
      if (/^drop/i.test(verb)) tables.delete(table);
      else if (renamed !== undefined) {
        tables.delete(renamed.toLowerCase());
        tables.add(table);
      } else tables.add(table);
    }
  }
  return [...tables];
}

const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** A placeholder for an interpolated value in a template's SQL: a write whose target is one is a dynamic table. */
const HOLE = '$$';

/** The SQL texts of a file: each tagged template (its interpolations as HOLE), or the whole of a .sql file. */
function sqlTexts(file: string): string[] {
  if (file.endsWith('.sql')) return [readFileSync(file, 'utf8')];
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node)) {
      const { template } = node;
      texts.push(
        ts.isNoSubstitutionTemplateLiteral(template)
          ? template.text
          : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)].join(HOLE),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return texts;
}

/** What a SQL text writes: table names, and HOLE for a table named by an interpolation. */
function writesOf(text: string): string[] {
  const sql = text
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase()
    // Not writes of a table of their own: an upsert's second half, and row locks.
    .replace(/\bdo\s+update\s+set\b/g, ' ')
    .replace(/\bfor\s+(?:no\s+key\s+)?update\b(?:\s+of\s+\w+(?:\s*,\s*\w+)*)?/g, ' ');
  const target = String.raw`((?:\w+\.)?\w+|\$\$)`;
  const verbs = [
    new RegExp(String.raw`\binsert\s+into\s+${target}`, 'g'),
    new RegExp(String.raw`\bupdate\s+(?:only\s+)?${target}`, 'g'),
    new RegExp(String.raw`\bdelete\s+from\s+(?:only\s+)?${target}`, 'g'),
    new RegExp(String.raw`\btruncate\s+(?:table\s+)?(?:only\s+)?${target}`, 'g'),
    new RegExp(String.raw`\bcopy\s+${target}(?:\s*\([^)]*\))?\s+from\b`, 'g'),
    new RegExp(String.raw`\bmerge\s+into\s+${target}`, 'g'),
  ];
  return verbs.flatMap((verb) => [...sql.matchAll(verb)].map((match) => (match[1] ?? '').replace(/^\w+\./, '')));
}

interface Write {
  file: string;
  owner: string;
  table: string;
}

/** Every table write in src/modules and src/demo, with the file and the module (or demo) that makes it. */
function writesIn(tables: readonly string[]): Write[] {
  const writes: Write[] = [];
  for (const file of [...filesUnder(MODULES), ...filesUnder(join(SRC, 'demo'))]) {
    const owner = ownerOf(file);
    if (owner === null) continue;
    const found = new Set(sqlTexts(file).flatMap(writesOf));
    if (found.delete(HOLE)) {
      // A table named at run time (`INSERT INTO ${sql(table)}`): every table the file names in a string literal.
      const source = readFileSync(file, 'utf8');
      for (const table of tables) if (new RegExp(`['"\`]${table}['"\`]`).test(source)) found.add(table);
    }
    for (const table of found) writes.push({ file: relative(SRC, file), owner, table });
  }
  return writes;
}

/** A relative import or re-export of a source file: where it is, and what it names. */
interface ModuleImport {
  file: string;
  target: string;
}

function importsOf(file: string): ModuleImport[] {
  const found: ModuleImport[] = [];
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

/** Imports from one module into another, by module. */
function moduleImports(): Array<ModuleImport & { from: string; to: string }> {
  return filesUnder(MODULES)
    .filter((file) => file.endsWith('.ts'))
    .flatMap(importsOf)
    .flatMap((entry) => {
      const from = ownerOf(entry.file);
      const to = ownerOf(entry.target);
      return from && to && to !== 'demo' && from !== to ? [{ ...entry, from, to }] : [];
    });
}

/** A cycle in the graph, as the modules along it (first repeated last), or null. */
function cycleIn(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
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

describe('one owner per table', () => {
  const tables = tablesOfMigrations();

  it('names an owner, an existing module, for every table the migrations create, and for nothing else', () => {
    const modules = new Set(
      readdirSync(MODULES, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name] : [])),
    );
    expect(tables.length).toBeGreaterThan(20);
    expect([...tables].sort()).toEqual(Object.keys(OWNERS).sort());
    expect(Object.values(OWNERS).filter((owner) => !modules.has(owner))).toEqual([]);
    expect([...DEMO_BULK_LOADED].filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('finds the writes it looks for (the scan itself)', () => {
    expect(writesOf('INSERT INTO items (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET sku = 1')).toEqual(['items']);
    expect(writesOf('SELECT 1 FROM items FOR NO KEY UPDATE OF items')).toEqual([]);
    expect(writesOf("UPDATE public.zones z SET name = 'update x' -- update y")).toEqual(['zones']);
    expect(writesOf(`WITH d AS (DELETE FROM changes RETURNING 1) TRUNCATE a, b`)).toEqual(['changes', 'a']);
    expect(writesOf(`INSERT INTO ${HOLE} ${HOLE}`)).toEqual([HOLE]);
    expect(writesOf('COPY items FROM STDIN; COPY (SELECT 1) TO STDOUT; MERGE INTO zones z USING')).toEqual([
      'items',
      'zones',
    ]);
  });

  it('has each table written by its owner only (the demo: the tables it bulk-loads, and those alone)', () => {
    const writes = writesIn(tables);
    expect(writes.length).toBeGreaterThan(40);
    const unknown = writes.filter(({ table }) => !tables.includes(table));
    expect(unknown, 'a write to a table no migration creates (or the scan misread one)').toEqual([]);
    const trespasses = writes.filter(({ owner, table }) => owner !== 'demo' && OWNERS[table] !== owner);
    expect(
      trespasses
        .filter(({ owner, table }) => !NOT_YET_MOVED.has(`${owner} writes ${table}`))
        .map(({ file, table }) => `${file} writes ${table}, owned by ${OWNERS[table]}`),
    ).toEqual([]);
    expect(new Set(trespasses.map(({ owner, table }) => `${owner} writes ${table}`))).toEqual(NOT_YET_MOVED);
    const demo = new Set(writes.filter(({ owner }) => owner === 'demo').map(({ table }) => table));
    expect([...demo].sort()).toEqual([...DEMO_BULK_LOADED].sort());
  });
});

describe('modules meet at their index', () => {
  const imports = moduleImports();

  it('imports another module only through its index.ts', () => {
    expect(imports.length).toBeGreaterThan(20);
    const past = imports
      .filter(({ target, to }) => target !== join(MODULES, to, 'index.ts'))
      .map(({ file, target }) => `${relative(SRC, file)} imports ${relative(SRC, target)}`);
    expect(past).toEqual([]);
  });

  it('has no cycle between module folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of imports) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    expect(cycleIn(edges)).toBeNull();
  });

  it('finds a cycle where there is one (the search itself)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycleIn(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(cycleIn(new Map([['a', new Set(['b'])]]))).toBeNull();
  });
});
