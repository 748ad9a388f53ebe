import { randomUUID } from 'node:crypto';
import type { Item } from '@coinventory/sdk';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './support/csv.js';
import { json, run, sdk } from './support/demo.js';

// Changes through the CLI, checked with the SDK. They touch only items this file creates (and deletes again), so the
// demo data the other files read stays as it was.

describe('changes: create, update, delete', () => {
  const sku = `CLI-${randomUUID().slice(0, 8)}`;
  let created: Item;

  it('create: dollars converted exactly, typed attributes, every field', async () => {
    created = json<Item>(
      await run([
        'items',
        'create',
        '--sku',
        sku,
        '--title',
        '1921 Morgan Dollar MS63',
        '--description',
        'Line one,\nline "two"',
        '--quantity',
        '2',
        '--value',
        '125.5',
        '--acquisition-price',
        '0.29',
        '--acquisition-date',
        '2026-03-01',
        '--acquired-from',
        'Estate sale',
        '--acquisition-notes',
        'Bought with a lot',
        '--grading-service',
        'PCGS',
        '--grade',
        'MS63',
        '--certificate-number',
        '007',
        '--grading-notes',
        'Toned obverse',
        '--attr',
        'year=1921',
        '--attr',
        'proof=false',
        '--attr',
        'mint=Philadelphia',
        '--attr',
        'pedigree=null',
        '--attr',
        'cert=007',
        '--attr',
        'label:="1921"',
        '--location-details',
        'Tray 4',
        '--json',
      ]),
    );
    expect(created).toMatchObject({
      sku,
      title: '1921 Morgan Dollar MS63',
      description: 'Line one,\nline "two"',
      quantity: { available: 2, sold: 0, reserved: 0 },
      valueInCents: 12_550,
      acquisition: {
        priceInCents: 29,
        date: '2026-03-01T00:00:00.000Z',
        from: 'Estate sale',
        notes: 'Bought with a lot',
      },
      grading: { service: 'PCGS', grade: 'MS63', certificateNumber: '007', notes: 'Toned obverse' },
      attributes: { year: 1921, proof: false, mint: 'Philadelphia', pedigree: null, cert: '007', label: '1921' },
      location: { details: 'Tray 4' },
    });
    expect(await sdk.items.get(created.id)).toEqual(created);
  });

  it('create prints the item as a detail view by default; --value-cents and --attributes-json', async () => {
    const other = `${sku}-B`;
    const { code, stdout } = await run([
      'items',
      'create',
      '--sku',
      other,
      '--title',
      'Second',
      '--value-cents',
      '9007199254740991',
      '--attributes-json',
      '{"year":1922,"note":"ok"}',
      '--warehouse-id',
      created.location.warehouseId,
      '--zone-id',
      created.location.zoneId,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(`SKU                ${other}`);
    expect(stdout).toContain('Value              $90,071,992,547,409.91');
    expect(stdout).toContain('year: 1922');
    const [item] = (await sdk.items.list({ sku: other })).items;
    expect(item?.valueInCents).toBe(9_007_199_254_740_991);
    expect(item?.attributes).toEqual({ year: 1922, note: 'ok' });
    await sdk.items.delete(item?.id ?? '');
  });

  it('a description with commas, quotes and a newline is quoted in CSV', async () => {
    const { stdout } = await run(['items', 'list', '--sku', sku, '--output', 'csv']);
    expect(stdout).toContain(',"Line one,\nline ""two""",');
    expect(parseCsv(stdout)[1]?.[3]).toBe('Line one,\nline "two"');
  });

  it('update changes only the fields given; --clear sends null', async () => {
    const updated = json<Item>(
      await run([
        'items',
        'update',
        created.id,
        '--quantity',
        '3',
        '--value',
        '99.99',
        '--clear',
        'certificate-number',
        '--clear',
        'acquisition-price',
        '--attr',
        'year=1921',
        '--json',
      ]),
    );
    expect(updated).toMatchObject({
      id: created.id,
      title: created.title,
      quantity: { available: 3 },
      valueInCents: 9_999,
      acquisition: { priceInCents: null, from: 'Estate sale' },
      grading: { certificateNumber: null, grade: 'MS63' },
      attributes: { year: 1921 },
    });
    expect(updated.updatedAt).not.toBeNull();
    const table = await run(['items', 'update', created.id, '--title', 'Renamed']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Title              Renamed');
  });

  it('delete --yes removes the item; it is then not found (exit 4)', async () => {
    expect(json(await run(['items', 'delete', created.id, '--yes', '--json']))).toEqual({
      id: created.id,
      deleted: true,
    });
    const again = await run(['items', 'get', created.id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(
      new RegExp(`^Error: Not found: item ${created.id} \\(NOT_FOUND, HTTP 404\\)\nRequest ID: req_\\S+\n$`),
    );
    const gone = await run(['items', 'delete', created.id, '--yes']);
    expect(gone.code).toBe(4);
  });

  it('delete prints a confirmation line in table mode', async () => {
    const item = await sdk.items.create({ sku: `${sku}-C`, title: 'To delete' });
    expect(await run(['items', 'delete', item.id, '-y'])).toEqual({
      code: 0,
      stdout: `Deleted item ${item.id}\n`,
      stderr: '',
    });
  });
});
