import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORTS } from '@coinventory/contract/constants';
import { describe, expect, inject, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { withKey } from './support/demo.js';

// `items export` against the shared server's demo organization (read only, with this file's own key): the bytes the
// API's export answers with, in NDJSON and CSV, the list's filters passed through, and the changes cursor of the
// export's snapshot said on stderr and saved with --cursor-file. (`export | head` on 10,000 items is in
// items-import-resume.test.ts, where there are that many.)

const { keys } = inject('server');
const { run, sdk } = withKey(keys.exporter);

/** The API's own export, as bytes. */
async function apiExport(query: Record<string, string>, accept: string): Promise<string> {
  const response = await sdk.stream('items.export', query, { accept });
  return response.text();
}

const FOLLOW = /^Exported (\d+) items?\. Follow the changes made since with: coinventory changes --after (\S+)\n$/;

describe('items export', () => {
  it('NDJSON (the default): exactly the API export, its end line included, and the cursor to follow on stderr', async () => {
    const result = await run(['items', 'export']);
    expect(result.code).toBe(0);
    const api = await apiExport({}, EXPORTS.mediaTypes.ndjson);
    const lines = result.stdout.trimEnd().split('\n');
    const end = JSON.parse(lines.at(-1) as string) as { count: number; nextCursor: string };
    // The cursor is the snapshot's: the same as the API's export when nothing changed in between.
    expect(result.stdout).toBe(api);
    expect(end.count).toBe(lines.length - 1);
    expect(end.count).toBeGreaterThan(40);
    const [, count, cursor] = FOLLOW.exec(result.stderr) ?? [];
    expect(Number(count)).toBe(end.count);
    expect(cursor).toBe(end.nextCursor);
  });

  it('--format csv: exactly the API export in CSV, the header first (the columns of items list --output csv)', async () => {
    const result = await run(['items', 'export', '--format', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(await apiExport({}, EXPORTS.mediaTypes.csv));
    const list = await run(['items', 'list', '--limit', '1', '--output', 'csv']);
    expect(result.stdout.split('\r\n')[0]).toBe(list.stdout.split('\r\n')[0]);
    expect(result.stderr).toMatch(FOLLOW);
  });

  it('passes the filters through, as items list names them', async () => {
    const args = ['--status', 'sold', '--grading-service', 'pcgs', '-q', '1'];
    const result = await run(['items', 'export', ...args]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      await apiExport({ status: 'sold', gradingService: 'pcgs', q: '1' }, EXPORTS.mediaTypes.ndjson),
    );
    const listed = JSON.parse(
      (await run(['items', 'list', ...args, '--all', '--limit', '100', '--json'])).stdout,
    ).items;
    const exported = result.stdout
      .trimEnd()
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line));
    expect(listed.length).toBeGreaterThan(0);
    expect(exported.map((i: { id: string }) => i.id).sort()).toEqual(listed.map((i: { id: string }) => i.id).sort());
    const one = await run(['items', 'export', '--sku', exported[0].sku, '--format', 'csv']);
    expect(one.stdout.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(one.stderr).toMatch(/^Exported 1 item\. /);
  });

  it('--cursor-file saves the snapshot cursor, which changes --cursor-file then follows from', async () => {
    const file = join(tempDir('export'), 'sync.cursor');
    const result = await run(['items', 'export', '--format', 'csv', '--cursor-file', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^Exported \d+ items\. Follow the changes made since with: coinventory changes --cursor-file \S+sync\.cursor\n$/,
    );
    const cursor = readFileSync(file, 'utf8').trim();
    expect(cursor).toBe((await sdk.changes.cursor()).cursor);
    const changes = await run(['changes', '--cursor-file', file, '--json']);
    expect(changes.code).toBe(0);
    expect(changes.stdout).toBe('');
  });
});
