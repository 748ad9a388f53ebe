import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import postgres from 'postgres';
import {
  ACQUIRED_FROM,
  ANCIENT_GRADES,
  BULLION_GRADES,
  CATEGORY_NAMES,
  CLASSIC_GRADES,
  COIN_TYPE_WEIGHTS,
  COMP_SOURCES,
  DESCRIPTIONS,
  FIRST_NAMES,
  GRADING_NOTES,
  GRADING_SERVICES,
  gradePrefix,
  INVOICE_SOURCES,
  LAST_NAMES,
  LOCATION_DETAILS,
  MINT_NAMES,
  PAYMENT_METHODS,
  PEDIGREES,
  Random,
  VALUATION_SUMMARIES,
} from './data.mjs';
import { itemId, log } from './util.mjs';

/**
 * Seeds the benchmark's data set by COPY, fast:
 *
 * - the four big tables (items, images, valuations, comparable sales) are loaded with their indexes and
 *   constraints set aside and `COPY … FREEZE` into the tables truncated in the same transaction (with
 *   wal_level=minimal that writes no WAL and leaves the rows frozen and all-visible, so no VACUUM pass is needed);
 * - the indexes and constraints are then rebuilt from their own definitions, two at a time (two cores), and the
 *   schema is compared with what the migrations produced: the benchmark runs on exactly the migrated schema.
 *
 * Items of all organizations are interleaved in time order, as a real multi-tenant table fills up, so one
 * workspace's rows are spread over the heap rather than packed together.
 */

/** The big tables whose indexes and constraints are rebuilt after the load. */
const BULK_TABLES = ['items', 'item_images', 'valuations', 'valuation_comps'];

/**
 * @typedef {object} SeedOrg
 * @property {string} slug
 * @property {string} name
 * @property {number} items
 * @property {string} [id]                 set for organizations made through the operator commands
 * @property {string} [defaultWarehouseId]
 * @property {string} [defaultZoneId]
 * @property {{ consignments: number, consignors: number, invoices: number, customers: number, listings: number }} [sales]
 */

/**
 * @typedef {object} SeedResult
 * @property {number} ms
 * @property {Record<string, number>} rows     rows per table
 * @property {Record<string, number>} phasesMs
 * @property {{ consignmentIds: string[] }} measured
 */

/** COPY text format: backslash, tab, newline and carriage return are escaped; NULL is \N. */
const SPECIAL = /[\\\t\n\r]/;
/** @type {Record<string, string>} */
const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** @param {string | number | boolean | null | undefined} value */
function t(value) {
  if (value === null || value === undefined) return '\\N';
  const s = String(value);
  return SPECIAL.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : s;
}

/** One COPY … FROM STDIN on its own connection, written in large chunks with backpressure. */
class CopyWriter {
  /**
   * @param {postgres.Sql} sql
   * @param {string} table
   * @param {string[]} columns
   * @param {{ freeze: boolean }} options
   */
  constructor(sql, table, columns, options) {
    this.sql = sql;
    this.table = table;
    this.columns = columns;
    this.options = options;
    this.buffer = '';
    this.rows = 0;
    /** @type {postgres.ReservedSql | null} */
    this.connection = null;
    /** @type {import('node:stream').Writable | null} */
    this.stream = null;
  }

  async open() {
    const connection = await this.sql.reserve();
    this.connection = connection;
    await connection`BEGIN`;
    // FREEZE needs the table created or truncated in this transaction; the bulk tables are empty before the load.
    if (this.options.freeze) await connection`TRUNCATE ${connection(this.table)}`;
    const freeze = this.options.freeze ? connection`WITH (FREEZE)` : connection``;
    this.stream =
      await connection`COPY ${connection(this.table)} (${connection(this.columns)}) FROM STDIN ${freeze}`.writable();
  }

  /**
   * Adds one row (fields already in COPY text form); resolves when the chunk was accepted.
   * @param {string} line  tab-separated fields without the newline
   * @returns {Promise<void> | undefined}  a promise only when the caller must wait (backpressure)
   */
  push(line) {
    this.buffer += `${line}\n`;
    this.rows += 1;
    if (this.buffer.length < 1 << 18) return undefined;
    return this.flush();
  }

  async flush() {
    const stream = this.stream;
    if (!stream) throw new Error(`COPY ${this.table} is not open`);
    const chunk = this.buffer;
    this.buffer = '';
    if (chunk.length > 0 && !stream.write(chunk)) await once(stream, 'drain');
  }

  async close() {
    await this.flush();
    const stream = this.stream;
    const connection = this.connection;
    if (!stream || !connection) throw new Error(`COPY ${this.table} is not open`);
    stream.end();
    await once(stream, 'finish');
    await connection`COMMIT`;
    connection.release();
  }
}

/**
 * The schema as the catalog describes it: columns, constraints (with whether they are validated) and indexes.
 * @param {postgres.Sql} sql
 * @returns {Promise<string[]>}
 */
export async function schemaFingerprint(sql) {
  const rows = await sql`
    SELECT format('column %s.%s %s null=%s default=%s generated=%s', table_name, column_name, data_type, is_nullable,
                  coalesce(column_default, '-'), coalesce(generation_expression, '-')) AS entry
    FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL
    SELECT format('constraint %s %s %s validated=%s', conrelid::regclass, conname, pg_get_constraintdef(oid), convalidated)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('index %s valid=%s', pg_get_indexdef(i.indexrelid), i.indisvalid)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('function %s', pg_get_functiondef(p.oid)) FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
  `;
  return rows.map((r) => String(r.entry)).sort();
}

/**
 * Sets the bulk tables' indexes and constraints aside; returns the statements that put them back, in order.
 * @param {postgres.Sql} sql
 * @returns {Promise<{ keys: string[], indexes: string[], foreignKeys: string[] }>}
 */
async function setIndexesAside(sql) {
  const foreignKeys = await sql`
    SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype = 'f' AND (conrelid = ANY(${BULK_TABLES}::regclass[]) OR confrelid = ANY(${BULK_TABLES}::regclass[]))
  `;
  const keys = await sql`
    SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype IN ('p', 'u') AND conrelid = ANY(${BULK_TABLES}::regclass[])
  `;
  const indexes = await sql`
    SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def,
           pg_get_indexdef(indexrelid) LIKE '%USING gin%' AS gin
    FROM pg_index i
    WHERE indrelid = ANY(${BULK_TABLES}::regclass[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid
                      AND c.contype IN ('p', 'u'))
  `;
  for (const fk of foreignKeys) await sql.unsafe(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${fk.conname}`);
  for (const index of indexes) await sql.unsafe(`DROP INDEX ${index.name}`);
  for (const key of keys) await sql.unsafe(`ALTER TABLE ${key.tbl} DROP CONSTRAINT ${key.conname}`);
  return {
    keys: keys.map((k) => `ALTER TABLE ${k.tbl} ADD CONSTRAINT ${k.conname} ${k.def}`),
    // The trigram index is the slowest build: start it first so the other builds fill the second core.
    indexes: [...indexes].sort((a, b) => Number(b.gin) - Number(a.gin)).map((i) => String(i.def)),
    foreignKeys: foreignKeys.map((k) => `ALTER TABLE ${k.tbl} ADD CONSTRAINT ${k.conname} ${k.def}`),
  };
}

/**
 * Runs statements on `concurrency` connections at once.
 * @param {postgres.Sql} sql
 * @param {string[]} statements
 * @param {number} concurrency
 */
async function runParallel(sql, statements, concurrency) {
  const queue = [...statements];
  const workers = Array.from({ length: concurrency }, async () => {
    const connection = await sql.reserve();
    try {
      await connection`SET maintenance_work_mem = '1GB'`;
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const t0 = performance.now();
        await connection.unsafe(next);
        if (process.env.BENCH_DEBUG) log(`${Math.round(performance.now() - t0)} ms: ${next.slice(0, 110)}`);
      }
    } finally {
      connection.release();
    }
  });
  await Promise.all(workers);
}

/**
 * Inserts small tables in one COPY each.
 * @param {postgres.Sql} sql
 * @param {string} table
 * @param {string[]} columns
 * @param {string[]} lines
 */
async function copyLines(sql, table, columns, lines) {
  if (lines.length === 0) return;
  const writer = new CopyWriter(sql, table, columns, { freeze: false });
  await writer.open();
  for (const line of lines) {
    const wait = writer.push(line);
    if (wait) await wait;
  }
  await writer.close();
}

const DAY_MS = 86_400_000;

/**
 * @param {number} ms
 * @returns {string}
 */
const iso = (ms) => new Date(ms).toISOString();

/**
 * Seeds every organization's data.
 * @param {string} url
 * @param {SeedOrg[]} orgs
 * @param {{ now: number }} options
 * @returns {Promise<SeedResult>}
 */
export async function seed(url, orgs, { now }) {
  const started = performance.now();
  /** @type {Record<string, number>} */
  const phasesMs = {};
  /** @type {Record<string, number>} */
  const rows = {};
  const sql = postgres(url, { max: 6, onnotice: () => {} });
  const random = new Random(20_260_116);
  const mark = (/** @type {string} */ phase, /** @type {number} */ since) => {
    phasesMs[phase] = Math.round(performance.now() - since);
  };
  try {
    const before = await schemaFingerprint(sql);

    // --- Organizations made here (not through the operator commands) and every workspace's places. ----------
    let phase = performance.now();
    /** @type {Map<string, { id: string, warehouseId: string, zones: string[], categories: string[], consignments: string[] }>} */
    const places = new Map();
    const newOrgs = orgs.filter((o) => !o.id);
    /** @type {string[]} */
    const orgLines = [];
    /** @type {string[]} */
    const warehouseLines = [];
    /** @type {string[]} */
    const zoneLines = [];
    /** @type {string[]} */
    const categoryLines = [];
    for (const org of orgs) {
      const id = org.id ?? randomUUID();
      const warehouseId = org.defaultWarehouseId ?? randomUUID();
      const receiving = org.defaultZoneId ?? randomUUID();
      if (!org.id) {
        const plan = random.weighted([
          ['business', 6],
          ['enterprise', 2],
          ['starter', 2],
        ]);
        orgLines.push(`${id}\t${t(org.name)}\t${org.slug}\t${plan}\t${iso(now - random.int(400, 3000) * DAY_MS)}`);
        warehouseLines.push(`${id}\t${warehouseId}\tMain\tt`);
        zoneLines.push(`${id}\t${receiving}\t${warehouseId}\tReceiving\t1`);
      }
      const vault = randomUUID();
      const showcase = randomUUID();
      zoneLines.push(`${id}\t${vault}\t${warehouseId}\tVault A\t2`, `${id}\t${showcase}\t${warehouseId}\tShowcase\t3`);
      const categories = CATEGORY_NAMES.map(() => randomUUID());
      categories.forEach((categoryId, i) => {
        categoryLines.push(`${id}\t${categoryId}\t${t(CATEGORY_NAMES[i])}`);
      });
      places.set(org.slug, { id, warehouseId, zones: [receiving, vault, showcase], categories, consignments: [] });
    }
    await copyLines(sql, 'organizations', ['id', 'name', 'slug', 'plan', 'created_at'], orgLines);
    await copyLines(sql, 'warehouses', ['organization_id', 'id', 'name', 'is_default'], warehouseLines);
    await copyLines(sql, 'zones', ['organization_id', 'id', 'warehouse_id', 'name', 'position'], zoneLines);
    await copyLines(sql, 'categories', ['organization_id', 'id', 'name'], categoryLines);
    rows.organizations = newOrgs.length;
    rows.zones = zoneLines.length;
    rows.categories = categoryLines.length;

    // --- Consignors, consignments and customers of the workspaces that sell. -----------------------------------
    /** @type {string[]} */
    const consignorLines = [];
    /** @type {string[]} */
    const consignmentLines = [];
    /** @type {string[]} */
    const customerLines = [];
    /** @type {Map<string, Array<{ id: string, name: string, email: string | null }>>} */
    const customersByOrg = new Map();
    const statuses = /** @type {const} */ ([
      ['intake', 6],
      ['cataloging', 8],
      ['listed', 25],
      ['partially_sold', 15],
      ['sold', 14],
      ['settled', 26],
      ['withdrawn', 3],
      ['returned', 3],
    ]);
    for (const org of orgs) {
      const place = places.get(org.slug);
      if (!org.sales || !place) continue;
      const consignors = Array.from({ length: org.sales.consignors }, (_, i) => {
        const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
        const email = random.chance(0.85) ? `consignor${i + 1}@mail.example` : null;
        const id = randomUUID();
        consignorLines.push(`${place.id}\t${id}\t${t(name)}\t${t(email)}`);
        return { id, name };
      });
      for (let i = 0; i < org.sales.consignments; i++) {
        const id = randomUUID();
        place.consignments.push(id);
        const consignor = random.pick(consignors);
        const status = random.weighted(statuses);
        const receivedMs = now - random.int(5, 1800) * DAY_MS;
        const soldMs = status === 'sold' || status === 'settled' ? receivedMs + random.int(20, 120) * DAY_MS : null;
        const settledMs = status === 'settled' && soldMs !== null ? soldMs + random.int(10, 45) * DAY_MS : null;
        const year = new Date(receivedMs).getUTCFullYear();
        consignmentLines.push(
          [
            place.id,
            id,
            `C-${year}-${String(i + 1).padStart(4, '0')}`,
            t(`${consignor.name.split(' ')[1]} collection, part ${random.int(1, 4)}`),
            status,
            status === 'settled' ? 'paid' : soldMs !== null ? 'unpaid' : '\\N',
            consignor.id,
            random.pick([800, 1000, 1200, 1500]),
            random.pick([1500, 2000, 2250]),
            iso(receivedMs),
            soldMs === null ? '\\N' : iso(Math.min(soldMs, now)),
            settledMs === null ? '\\N' : iso(Math.min(settledMs, now)),
            iso(receivedMs),
          ].join('\t'),
        );
      }
      const customers = Array.from({ length: org.sales.customers }, (_, i) => {
        const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
        const email = `customer${i + 1}@mail.example`;
        const id = randomUUID();
        customerLines.push(`${place.id}\t${id}\t${t(name)}\t${email}`);
        return { id, name, email };
      });
      customersByOrg.set(org.slug, customers);
    }
    await copyLines(sql, 'consignors', ['organization_id', 'id', 'name', 'email'], consignorLines);
    await copyLines(
      sql,
      'consignments',
      [
        'organization_id',
        'id',
        'number',
        'name',
        'status',
        'payment_status',
        'consignor_id',
        'commission_bps',
        'buyer_premium_bps',
        'received_at',
        'sold_at',
        'settled_at',
        'created_at',
      ],
      consignmentLines,
    );
    await copyLines(sql, 'customers', ['organization_id', 'id', 'name', 'email'], customerLines);
    rows.consignors = consignorLines.length;
    rows.consignments = consignmentLines.length;
    rows.customers = customerLines.length;
    mark('workspaces', phase);

    // --- The big tables. ---------------------------------------------------------------------------------------
    phase = performance.now();
    const restore = await setIndexesAside(sql);
    const items = new CopyWriter(
      sql,
      'items',
      [
        'organization_id',
        'id',
        'sku',
        'title',
        'description',
        'category_id',
        'quantity_available',
        'quantity_sold',
        'quantity_reserved',
        'value_in_cents',
        'acquisition_price_in_cents',
        'acquisition_date',
        'acquired_from',
        'acquisition_notes',
        'grading_service',
        'grade',
        'certificate_number',
        'grading_notes',
        'attributes',
        'warehouse_id',
        'zone_id',
        'location_details',
        'consignment_id',
        'is_at_auction',
        'created_at',
        'updated_at',
      ],
      { freeze: true },
    );
    const images = new CopyWriter(
      sql,
      'item_images',
      ['organization_id', 'id', 'item_id', 'position', 'url', 'width', 'height'],
      { freeze: true },
    );
    const valuations = new CopyWriter(
      sql,
      'valuations',
      [
        'organization_id',
        'id',
        'item_id',
        'estimate_low_in_cents',
        'estimate_in_cents',
        'estimate_high_in_cents',
        'confidence_percent',
        'basis',
        'price_guide_value_in_cents',
        'melt_value_in_cents',
        'summary',
        'applied_at',
        'created_at',
      ],
      { freeze: true },
    );
    const comps = new CopyWriter(
      sql,
      'valuation_comps',
      [
        'organization_id',
        'id',
        'valuation_id',
        'position',
        'source',
        'title',
        'grade',
        'grading_service',
        'price_in_cents',
        'sold_at',
        'venue',
        'url',
      ],
      { freeze: true },
    );
    await Promise.all([items.open(), images.open(), valuations.open(), comps.open()]);
    const cpuBefore = process.cpuUsage();

    /** Sold items of workspaces that sell, for their invoice lines. @type {Map<string, Array<{ id: string, value: number }>>} */
    const soldByOrg = new Map();
    /** Items that get a marketplace listing. @type {Map<string, string[]>} */
    const listedByOrg = new Map();
    const remaining = orgs.map((o) => o.items);
    const counters = orgs.map(() => 0);
    let left = remaining.reduce((a, b) => a + b, 0);
    const total = left;
    // Five years of stock intake, oldest first; the last item arrives an hour before now.
    const start = now - 5 * 365 * DAY_MS;
    const span = now - start - 3_600_000;
    const silverCentsPerGram = 95;
    const goldCentsPerGram = 8_400;
    for (let row = 0; left > 0; row++, left--) {
      // The next item belongs to an organization chosen in proportion to what it still has to add.
      let r = Math.floor(random.next() * left);
      let o = 0;
      while (r >= (remaining[o] ?? 0)) {
        r -= remaining[o] ?? 0;
        o++;
      }
      const org = /** @type {SeedOrg} */ (orgs[o]);
      remaining[o] = (remaining[o] ?? 0) - 1;
      const n = (counters[o] ?? 0) + 1;
      counters[o] = n;
      const place = /** @type {NonNullable<ReturnType<typeof places.get>>} */ (places.get(org.slug));
      const id = itemId(org.slug, n);
      const createdMs = start + Math.floor((row / total) * span) + random.int(0, 60_000);

      const type = random.weighted(COIN_TYPE_WEIGHTS);
      const service = random.weighted(GRADING_SERVICES);
      const mint = random.pick(type.mints);
      const year = type.years ? random.int(type.years[0], type.years[1]) : null;
      const dateLabel = year === null ? '' : `${year}${mint ? `-${mint}` : ''} `;
      let sheldon;
      let grade;
      if (type.years === null) {
        sheldon = random.int(20, 62);
        grade = service === null ? null : random.pick(ANCIENT_GRADES);
      } else {
        sheldon = random.weighted(type.bullion ? BULLION_GRADES : CLASSIC_GRADES);
        const proof = type.bullion && random.chance(0.2);
        const plus = service !== null && sheldon >= 62 && sheldon <= 67 && random.chance(0.08) ? '+' : '';
        const designation = proof
          ? random.pick([' DCAM', ' UCAM', ' Deep Cameo'])
          : type.copper
            ? random.pick([' RD', ' RB', ' BN'])
            : type.code === 'MOR' && sheldon >= 60 && random.chance(0.08)
              ? random.pick([' PL', ' DMPL'])
              : '';
        const letters = proof ? (service === 'PCGS' ? 'PR' : 'PF') : gradePrefix(sheldon);
        grade =
          service === null
            ? random.chance(0.6)
              ? gradePrefix(sheldon) // a dealer's own grade on a raw coin
              : null
            : `${letters}${sheldon}${plus}${designation}`;
      }
      const title = `${dateLabel}${type.name}${service === null ? ' (raw)' : ` ${service}`}${grade ? ` ${grade}` : ''}`;
      const gradeFactor = type.bullion ? 1 + (sheldon - 69) * 0.15 : 1.12 ** (sheldon - 30);
      const keyDate = random.chance(0.06) ? random.int(5, 40) : 1;
      const value = Math.max(
        100,
        Math.round((type.baseCents * gradeFactor * keyDate * random.logNormal(0.35)) / 100) * 100,
      );
      const cert =
        service === 'PCGS' || service === 'CACG'
          ? String(random.int(10_000_000, 99_999_999))
          : service === 'NGC'
            ? `${random.int(1_000_000, 9_999_999)}-${String(random.int(1, 999)).padStart(3, '0')}`
            : service === 'ANACS'
              ? String(random.int(1_000_000, 9_999_999))
              : service === 'ICG'
                ? String(random.int(1_000_000_000, 9_999_999_999))
                : null;
      const status = random.weighted([
        ['in_stock', 70],
        ['sold', 18],
        ['out_of_stock', 4],
        ['at_auction', 8],
      ]);
      const stockUnits = type.bullion ? random.int(1, 40) : 1;
      const available = status === 'in_stock' || status === 'at_auction' ? stockUnits : 0;
      const sold = status === 'sold' ? (type.bullion ? random.int(1, 60) : 1) : type.bullion ? random.int(0, 20) : 0;
      const reserved = available > 0 && random.chance(0.03) ? 1 : 0;
      const consignmentId =
        place.consignments.length > 0 && n % 8 === 3
          ? place.consignments[Math.floor(n / 8) % place.consignments.length]
          : null;
      const acquiredMs = createdMs - random.int(0, 30) * DAY_MS;
      const costKnown = consignmentId === null && random.chance(0.88);
      const attributes = {
        year,
        mint: type.years === null ? null : (MINT_NAMES[mint] ?? null),
        metal: type.metal,
        weightGrams: type.grams,
        fineness: type.fineness,
        country: type.country,
        denomination: type.name.includes('Dollar') ? '$1' : null,
        toned: random.chance(0.15),
        pedigree: random.chance(0.03) ? `${random.pick(PEDIGREES)} Collection` : null,
        ...(random.chance(0.1) ? { cac: true } : {}),
        ...(type.years === null ? { era: type.era ?? null } : {}),
      };
      const zone = random.weighted([
        [0, 10],
        [1, 60],
        [2, 30],
      ]);
      const sku = `${type.code}-${year ?? 'ANC'}${mint}-${sheldon}-${n.toString(36).toUpperCase()}`;
      const updatedMs = random.chance(0.3) ? Math.min(now - 60_000, createdMs + random.int(1, 400) * DAY_MS) : null;
      const categoryIndex = random.chance(0.9) ? CATEGORY_NAMES.indexOf(type.category) : -1;

      const line = [
        place.id,
        id,
        sku,
        t(title),
        random.chance(0.7) ? t(random.pick(DESCRIPTIONS)) : '\\N',
        categoryIndex < 0 ? '\\N' : place.categories[categoryIndex],
        available,
        sold,
        reserved,
        value,
        costKnown ? Math.round(value * (0.55 + random.next() * 0.35)) : '\\N',
        costKnown ? iso(acquiredMs) : '\\N',
        costKnown ? t(random.pick(ACQUIRED_FROM)) : '\\N',
        random.chance(0.1) ? 'Bought as part of a larger lot.' : '\\N',
        t(service),
        t(grade),
        t(cert),
        random.chance(0.08) ? t(random.pick(GRADING_NOTES)) : '\\N',
        t(JSON.stringify(attributes)),
        place.warehouseId,
        place.zones[zone],
        random.chance(0.5) ? t(random.pick(LOCATION_DETAILS)) : '\\N',
        consignmentId ?? '\\N',
        status === 'at_auction' ? 't' : 'f',
        iso(createdMs),
        updatedMs === null ? '\\N' : iso(updatedMs),
      ].join('\t');
      let wait = items.push(line);
      if (wait) await wait;

      // 0–3 photos: obverse, reverse, then the holder's label.
      const photos = random.int(0, 3);
      for (let p = 1; p <= photos; p++) {
        const sized = random.chance(0.9);
        const width = p === 3 ? 2000 : 1600;
        const height = p === 3 ? 1000 : 1600;
        wait = images.push(
          `${place.id}\t${randomUUID()}\t${id}\t${p}\thttps://img.coinventory.example/${org.slug}/${id}/${p}.jpg\t${sized ? width : '\\N'}\t${sized ? height : '\\N'}`,
        );
        if (wait) await wait;
      }

      // A tenth of the items have been valued, once or twice, each valuation with the sales it compared.
      if (n % 10 === 0) {
        const count = random.int(1, 2);
        for (let v = 0; v < count; v++) {
          const valuationId = randomUUID();
          const createdValuationMs = Math.min(now - 120_000, createdMs + random.int(1, 300) * DAY_MS + v * DAY_MS);
          const estimate = Math.round((value * (0.85 + random.next() * 0.3)) / 100) * 100;
          const basis = type.bullion
            ? random.weighted([
                ['melt', 5],
                ['comps', 4],
                ['price_guide', 1],
              ])
            : random.weighted([
                ['comps', 8],
                ['price_guide', 1],
                ['model_knowledge', 1],
              ]);
          const meltPerGram =
            type.metal === 'gold' ? goldCentsPerGram : type.metal === 'silver' ? silverCentsPerGram : 0;
          const melt =
            type.grams !== null && type.fineness !== null && meltPerGram > 0
              ? Math.round(type.grams * type.fineness * meltPerGram)
              : null;
          wait = valuations.push(
            [
              place.id,
              valuationId,
              id,
              Math.round((estimate * 0.85) / 100) * 100,
              estimate,
              Math.round((estimate * 1.15) / 100) * 100,
              random.int(55, 95),
              basis,
              random.chance(0.6) ? Math.round((value * (0.9 + random.next() * 0.2)) / 100) * 100 : '\\N',
              melt ?? '\\N',
              t(random.pick(VALUATION_SUMMARIES)),
              v === count - 1 && random.chance(0.5) ? iso(createdValuationMs + 3_600_000) : '\\N',
              iso(createdValuationMs),
            ].join('\t'),
          );
          if (wait) await wait;
          const compCount = random.int(3, 5);
          for (let c = 1; c <= compCount; c++) {
            const [source, sourceSlug, venue] = random.pick(COMP_SOURCES);
            const soldAt = new Date(createdValuationMs - random.int(5, 700) * DAY_MS).toISOString().slice(0, 10);
            wait = comps.push(
              [
                place.id,
                randomUUID(),
                valuationId,
                c,
                t(source),
                t(title),
                t(grade),
                t(service),
                Math.round((value * (0.7 + random.next() * 0.6)) / 100) * 100,
                soldAt,
                t(venue),
                `https://comps.coinventory.example/${sourceSlug}/${random.int(100_000, 9_999_999)}`,
              ].join('\t'),
            );
            if (wait) await wait;
          }
        }
      }

      if (org.sales) {
        if (status === 'sold') {
          const list = soldByOrg.get(org.slug) ?? [];
          soldByOrg.set(org.slug, list);
          list.push({ id, value });
        }
        const listed = listedByOrg.get(org.slug) ?? [];
        listedByOrg.set(org.slug, listed);
        if (n % 50 === 7 && listed.length < org.sales.listings) listed.push(id);
      }
    }
    await Promise.all([items.close(), images.close(), valuations.close(), comps.close()]);
    rows.items = items.rows;
    rows.item_images = images.rows;
    rows.valuations = valuations.rows;
    rows.valuation_comps = comps.rows;
    mark('bulk copy', phase);
    if (process.env.BENCH_DEBUG) log(`generator CPU: ${JSON.stringify(process.cpuUsage(cpuBefore))}`);

    // --- Invoices (with lines for sold items and payments) and marketplace listings. ---------------------------
    phase = performance.now();
    /** @type {string[]} */
    const invoiceLines = [];
    /** @type {string[]} */
    const lineLines = [];
    /** @type {string[]} */
    const paymentLines = [];
    /** @type {string[]} */
    const listingLines = [];
    for (const org of orgs) {
      const place = places.get(org.slug);
      const customers = customersByOrg.get(org.slug);
      if (!org.sales || !place || !customers) continue;
      const soldItems = soldByOrg.get(org.slug) ?? [];
      let nextSold = 0;
      for (let i = 0; i < org.sales.invoices; i++) {
        const id = randomUUID();
        const status = random.weighted([
          ['paid', 55],
          ['sent', 10],
          ['partially_paid', 8],
          ['overdue', 7],
          ['draft', 8],
          ['void', 6],
          ['cancelled', 6],
        ]);
        const source = random.weighted(INVOICE_SOURCES);
        const walkIn = source === 'manual' && random.chance(0.2);
        const customer = walkIn ? null : random.pick(customers);
        // Invoice numbers rise with time, as a dealer's invoice book does.
        const createdMs = now - 4 * 365 * DAY_MS + Math.floor((i / org.sales.invoices) * 4 * 365 * DAY_MS);
        let subtotal = 0;
        const lines = random.int(1, 4);
        for (let l = 1; l <= lines; l++) {
          const item = soldItems.length > 0 ? soldItems[nextSold++ % soldItems.length] : undefined;
          const quantity = 1;
          const unit = item ? Math.round((item.value * (0.95 + random.next() * 0.15)) / 100) * 100 : 2_500;
          subtotal += quantity * unit;
          lineLines.push(
            [
              place.id,
              randomUUID(),
              id,
              l,
              item?.id ?? '\\N',
              item ? '\\N' : 'Supplies and holders',
              quantity,
              unit,
            ].join('\t'),
          );
        }
        const discount = random.chance(0.15) ? Math.round(subtotal * 0.05) : 0;
        const shipping = source === 'manual' ? 0 : random.pick([0, 1_200, 2_500, 4_500]);
        const tax = source === 'manual' && random.chance(0.5) ? Math.round(subtotal * 0.0725) : 0;
        const totalDue = Math.max(subtotal - discount + shipping + tax, 0);
        const paidMs = status === 'paid' ? Math.min(now - 60_000, createdMs + random.int(0, 20) * DAY_MS) : null;
        invoiceLines.push(
          [
            place.id,
            id,
            i + 1,
            status,
            t(source),
            customer?.id ?? '\\N',
            t(customer?.name ?? (walkIn ? 'Walk-in customer' : null)),
            t(customer?.email ?? null),
            discount,
            shipping,
            tax,
            iso(createdMs + 30 * DAY_MS),
            paidMs === null ? '\\N' : iso(paidMs),
            iso(createdMs),
          ].join('\t'),
        );
        /** @type {Array<[number, string, number]>} amount, status, paid at */
        const payments = [];
        if (status === 'paid') {
          if (random.chance(0.1)) payments.push([Math.round(totalDue / 2), 'failed', createdMs + DAY_MS]);
          payments.push([totalDue, 'succeeded', paidMs ?? createdMs]);
        } else if (status === 'partially_paid') {
          payments.push([Math.round(totalDue * (0.2 + random.next() * 0.5)), 'succeeded', createdMs + 2 * DAY_MS]);
        } else if (status === 'overdue' && random.chance(0.3)) {
          payments.push([totalDue, 'failed', createdMs + 5 * DAY_MS]);
        } else if (status === 'sent' && random.chance(0.2)) {
          payments.push([totalDue, 'pending', createdMs + DAY_MS]);
        }
        for (const [amount, paymentStatus, atMs] of payments) {
          paymentLines.push(
            [
              place.id,
              randomUUID(),
              id,
              amount,
              random.pick(PAYMENT_METHODS),
              paymentStatus,
              paymentStatus === 'pending' ? '\\N' : iso(Math.min(atMs, now - 60_000)),
              iso(Math.min(atMs, now - 60_000)),
            ].join('\t'),
          );
        }
      }
      for (const [i, item] of (listedByOrg.get(org.slug) ?? []).entries()) {
        listingLines.push(
          `${place.id}\t${randomUUID()}\t${item}\tmkt-${org.slug}-${i + 1}\thttps://market.coinventory.example/listing/${i + 1}`,
        );
      }
    }
    await copyLines(
      sql,
      'invoices',
      [
        'organization_id',
        'id',
        'number',
        'status',
        'source',
        'customer_id',
        'customer_name',
        'customer_email',
        'discount_in_cents',
        'shipping_in_cents',
        'tax_in_cents',
        'due_at',
        'paid_at',
        'created_at',
      ],
      invoiceLines,
    );
    await copyLines(
      sql,
      'invoice_lines',
      ['organization_id', 'id', 'invoice_id', 'position', 'item_id', 'description', 'quantity', 'unit_price_in_cents'],
      lineLines,
    );
    await copyLines(
      sql,
      'invoice_payments',
      ['organization_id', 'id', 'invoice_id', 'amount_in_cents', 'method', 'status', 'paid_at', 'created_at'],
      paymentLines,
    );
    await copyLines(
      sql,
      'marketplace_listings',
      ['organization_id', 'id', 'item_id', 'marketplace_listing_id', 'external_url'],
      listingLines,
    );
    rows.invoices = invoiceLines.length;
    rows.invoice_lines = lineLines.length;
    rows.invoice_payments = paymentLines.length;
    rows.marketplace_listings = listingLines.length;
    mark('sales', phase);

    // --- Indexes and constraints back, then statistics. --------------------------------------------------------
    phase = performance.now();
    await runParallel(sql, [...restore.keys, ...restore.indexes], 2);
    mark('indexes', phase);
    phase = performance.now();
    await runParallel(sql, restore.foreignKeys, 2);
    mark('foreign keys', phase);
    phase = performance.now();
    const tables =
      await sql`SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`;
    await runParallel(
      sql,
      tables.map((r) => `VACUUM (ANALYZE) ${String(r.relname)}`),
      2,
    );
    mark('vacuum analyze', phase);

    const after = await schemaFingerprint(sql);
    const missing = before.filter((entry) => !after.includes(entry));
    const extra = after.filter((entry) => !before.includes(entry));
    if (missing.length > 0 || extra.length > 0) {
      throw new Error(
        `the schema after seeding differs from the migrated one:\n  missing: ${missing.join('\n  ')}\n  extra: ${extra.join('\n  ')}`,
      );
    }
    const measured = orgs.find((o) => o.sales);
    log(`seeded ${rows.items} items; schema identical to the migrations' (${after.length} catalog entries)`);
    return {
      ms: Math.round(performance.now() - started),
      rows,
      phasesMs,
      measured: { consignmentIds: (measured && places.get(measured.slug)?.consignments) || [] },
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
