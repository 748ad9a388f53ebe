import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { cycleIn, filesUnder, fromSrc, importsOf, MODULES, parse, type SourceImport, SRC } from './source-graph.js';

/**
 * One owner per table, and modules that meet only at their index (issue 36). Read from the sources, without a
 * database: the migrations name the tables, OWNERS names who writes each, and every SQL text of src (postgres.js
 * tagged templates, .sql files; the migrations aside) is searched for the tables it writes.
 */

/** The one module that writes each table; every other module calls its index, or subscribes to its changes. */
const OWNERS: Readonly<Record<string, string>> = {
  organizations: 'organizations',
  users: 'organizations',
  memberships: 'organizations',
  api_keys: 'access',
  rate_limit_slots: 'access',
  rate_limit_state: 'access',
  items: 'items',
  item_images: 'items',
  item_movements: 'items',
  reservations: 'reservations',
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

/** The module a file of src belongs to (its folder name), or null: a file of another layer, which owns no table. */
function ownerOf(file: string): string | null {
  const path = fromSrc(file).split('/');
  return path[0] === 'modules' && path.length > 2 ? (path[1] ?? null) : null;
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
  owner: string | null;
  table: string;
}

/**
 * The migration runner's own bookkeeping (db/migrate.ts), which no migration creates: the one table a file outside
 * the modules writes.
 */
const MIGRATION_LEDGER = { file: 'db/migrate.ts', table: 'schema_migrations' };

/**
 * Tables only a trigger of their owner's table writes (declared in the migrations): an item's movements are recorded
 * by the trigger on `items` (migration 0013), so no statement of src writes them.
 */
const WRITTEN_BY_TRIGGER: ReadonlySet<string> = new Set(['item_movements']);

/** Every table write in src (the migrations aside), with the file and the module that makes it (null: none). */
function writesIn(tables: readonly string[]): Write[] {
  const writes: Write[] = [];
  for (const file of filesUnder(SRC).filter((path) => !fromSrc(path).startsWith('db/migrations/'))) {
    const found = new Set(sqlTexts(file).flatMap(writesOf));
    if (found.delete(HOLE)) {
      // A table named at run time (`INSERT INTO ${sql(table)}`): every table the file names in a string literal.
      const source = readFileSync(file, 'utf8');
      for (const table of tables) if (new RegExp(`['"\`]${table}['"\`]`).test(source)) found.add(table);
    }
    for (const table of found) writes.push({ file: fromSrc(file), owner: ownerOf(file), table });
  }
  return writes;
}

/**
 * The one file of src that reaches past an index: the package's `demo-data` entry (demo/shared.ts), built on its own
 * for the benchmark with its declarations. Through the indexes it would load the routes and services, and the
 * declaration build would have to name the routes' inferred types, which it cannot (TS2742, TS4023), so it takes the
 * declarations it shares from their own files. Only shrinks: an entry no longer found fails too.
 */
const PAST_INDEX_FOR_DEMO_DATA = new Set([
  'demo/shared.ts imports modules/access/authenticate.ts',
  'demo/shared.ts imports modules/access/key-format.ts',
  'demo/shared.ts imports modules/items/columns.ts',
]);

/** Imports from any file of src into a module other than its own. */
function importsIntoModules(): Array<SourceImport & { from: string | null; to: string }> {
  return filesUnder(SRC)
    .filter((file) => file.endsWith('.ts'))
    .flatMap(importsOf)
    .flatMap((entry) => {
      const from = ownerOf(entry.file);
      const to = ownerOf(entry.target);
      return to && from !== to ? [{ ...entry, from, to }] : [];
    });
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

  it('has each table written by its owner only, and by no file outside the modules', () => {
    const writes = writesIn(tables);
    // The scan's own check: it finds a write of every table (each is written somewhere, by its owner).
    expect(
      tables.filter((table) => !WRITTEN_BY_TRIGGER.has(table) && !writes.some((write) => write.table === table)),
    ).toEqual([]);
    expect(writes.filter((write) => WRITTEN_BY_TRIGGER.has(write.table))).toEqual([]);
    const ledger = ({ file, table }: Write) => file === MIGRATION_LEDGER.file && table === MIGRATION_LEDGER.table;
    const unknown = writes.filter((write) => !tables.includes(write.table) && !ledger(write));
    expect(unknown, 'a write to a table no migration creates (or the scan misread one)').toEqual([]);
    expect(
      writes
        .filter((write) => !ledger(write) && OWNERS[write.table] !== write.owner)
        .map(({ file, table }) => `${file} writes ${table}, owned by ${OWNERS[table]}`),
    ).toEqual([]);
  });
});

describe('modules meet at their index', () => {
  const imports = importsIntoModules();

  it('is imported, from any file of src, only through its index.ts', () => {
    expect(imports.length).toBeGreaterThan(100);
    const past = imports
      .filter(({ target, to }) => target !== join(MODULES, to, 'index.ts'))
      .map(({ file, target }) => `${fromSrc(file)} imports ${fromSrc(target)}`);
    expect(past.filter((entry) => !PAST_INDEX_FOR_DEMO_DATA.has(entry))).toEqual([]);
    expect(new Set(past)).toEqual(PAST_INDEX_FOR_DEMO_DATA);
  });

  it('has no cycle between module folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of imports) if (from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
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
