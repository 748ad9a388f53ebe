import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Change, Item } from '@coinventory/sdk';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliResult, tempDir } from './support/cli.js';
import { withKey } from './support/demo.js';

// `changes` and `changes cursor` against the real feed: a cursor taken first, then changes this file makes (an item
// created, updated and deleted), then what the CLI prints after that cursor, compared with what the API answers.

const { run, sdk } = withKey(inject('server').keys.changes);

/** The changes a run printed as NDJSON, each line parsed. */
const ndjson = (result: CliResult): Change[] => {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  return result.stdout
    .slice(0, -1)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Change);
};

/** The line a run ends with on stderr: where to resume. */
const resume = (cursor: string, more = ''): string => `Resume with: coinventory changes --after ${cursor}${more}\n`;

/** A time as the table prints it, in the test's TZ=UTC: `2026-11-24 18:40:12`. */
const tableTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

let start: string;
let created: Item;
let updated: Item;
let end: string;

beforeAll(async () => {
  start = (await sdk.changes.cursor()).cursor;
  const sku = `CHG-${randomUUID().slice(0, 8)}`;
  created = await sdk.items.create({ sku, title: 'Watched coin', quantity: 1 });
  updated = await sdk.items.update(created.id, { quantity: 4, title: 'Watched coin, recounted' });
  await sdk.items.delete(created.id);
  end = (await sdk.changes.cursor()).cursor;
});

describe('changes cursor', () => {
  it("prints the feed's end: plain for $(…), or as JSON", async () => {
    expect(await run(['changes', 'cursor'])).toEqual({ code: 0, stdout: `${end}\n`, stderr: '' });
    const asJson = await run(['changes', 'cursor', '--json']);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual({ cursor: end });
  });
});

describe('changes after a cursor', () => {
  it('--json prints exactly the changes made, one API object per line, and where to resume', async () => {
    const result = await run(['changes', '--after', start, '--json']);
    const changes = ndjson(result);
    expect(changes).toEqual((await sdk.changes.list({ after: start })).items);
    expect(changes.map(({ type, objectId, data }) => ({ type, objectId, data }))).toEqual([
      { type: 'item.created', objectId: created.id, data: created },
      { type: 'item.updated', objectId: created.id, data: updated },
      { type: 'item.deleted', objectId: created.id, data: null },
    ]);
    expect(result.stderr).toBe(resume(end));
    // Page by page (one change per request), the same changes and the same end.
    expect(await run(['changes', 'list', '--after', start, '--limit', '1', '--json'])).toEqual(result);
  });

  it('a table: one line per change, with the SKU and title (the deleted item as seen before)', async () => {
    const changes = (await sdk.changes.list({ after: start })).items;
    const { code, stdout, stderr } = await run(['changes', '--after', start]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: resume(end) });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^TIME {17}TYPE {10}OBJECT {32}SKU {19}TITLE$/);
    const titles = [created.title, updated.title, updated.title];
    expect(lines.slice(1)).toEqual([
      ...changes.map((change, i) =>
        [tableTime(change.occurredAt), change.type, change.objectId, created.sku.padEnd(20), titles[i]].join('  '),
      ),
      '',
    ]);
  });

  it('--types: only those changes; the cursor goes past the others, and the resume line keeps the filter', async () => {
    const result = await run(['changes', '--after', start, '--types', 'item.deleted', '--json']);
    expect(ndjson(result).map((change) => change.type)).toEqual(['item.deleted']);
    expect(result.stderr).toBe(resume(end, ' --types item.deleted'));
    const both = await run([
      'changes',
      '--after',
      start,
      '--types',
      'item.created',
      '--types',
      'item.updated',
      '--json',
    ]);
    expect(ndjson(both).map((change) => change.type)).toEqual(['item.created', 'item.updated']);
  });

  it('at the end of the feed: nothing printed, the same cursor back; --after now starts there', async () => {
    expect(await run(['changes', '--after', end])).toEqual({
      code: 0,
      stdout: '',
      stderr: `No changes found.\n${resume(end)}`,
    });
    expect(await run(['changes', '--after', 'now', '--json'])).toEqual({ code: 0, stdout: '', stderr: resume(end) });
  });

  it('--cursor-file: starts from the file, saves the end there, and the next run prints nothing new', async () => {
    const file = join(tempDir('cursor'), 'sync.cursor');
    writeFileSync(file, `${start}\n`);
    const first = await run(['changes', '--cursor-file', file, '--json']);
    expect(ndjson(first)).toHaveLength(3);
    expect(first.stderr).toBe(`Resume with: coinventory changes --cursor-file ${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(`${end}\n`);
    expect(await run(['changes', '--cursor-file', file, '--json'])).toEqual({ ...first, stdout: '' });
    expect(readFileSync(file, 'utf8')).toBe(`${end}\n`);
  });

  it('a cursor the feed does not know is refused with the reason (exit 2)', async () => {
    const result = await run(['changes', '--after', 'not-a-cursor']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^Error: .*\(BAD_REQUEST, HTTP 400\)\n {2}- query\.after: not a cursor of this changes feed; start again from a full read/,
    );
    // A refused cursor is no place to resume from: no resume line.
    expect(result.stderr).not.toContain('Resume with');
  });
});
