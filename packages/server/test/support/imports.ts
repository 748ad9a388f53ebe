import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CsvParser } from '@coinventory/contract/csv';
import { afterAll, expect } from 'vitest';
import type { Sql } from '../../src/db/types.js';
import { EXIT, executeOperatorCommand } from '../../src/operator/index.js';

/** What the tests of `coinventory-server import` share: the samples, a CSV reader and the command run in-process. */

/** packages/server/samples/imports, with a sample file per kind. */
export const SAMPLES = fileURLToPath(new URL('../../samples/imports/', import.meta.url));

/** A CSV as records of field name to value (absent when empty), read with the contract's CSV reader. */
export function csvObjects(path: string): Array<Record<string, string>> {
  const parser = new CsvParser();
  const [header, ...records] = [...parser.push(readFileSync(path, 'utf8')), ...parser.end()].filter(
    (record) => record.fields.join('') !== '',
  );
  return records.map((record) =>
    Object.fromEntries(
      (header?.fields ?? []).flatMap((name, i) => (record.fields[i] ? [[name, record.fields[i] as string]] : [])),
    ),
  );
}

/** Operator commands run in-process on `sql()`: `run` as typed, `json` with `--json`, expected to succeed. */
export function operatorCommands(sql: () => Sql) {
  const run = (...argv: string[]) => executeOperatorCommand(argv, sql());
  const json = async (...argv: string[]) => {
    const output = await run(...argv, '--json');
    expect(output.exitCode, output.stderr).toBe(EXIT.ok);
    return JSON.parse(output.stdout);
  };
  return { run, json };
}

/**
 * A temporary folder for a test file's own import files, removed after its tests: `file(name, lines)` writes one,
 * a line each, and returns its path.
 */
export function importFiles(prefix: string) {
  const folder = mkdtempSync(join(tmpdir(), `coinventory-${prefix}-`));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const file = (name: string, lines: readonly string[]): string => {
    const path = join(folder, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  return { folder, file };
}
