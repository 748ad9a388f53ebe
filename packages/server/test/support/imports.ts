import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CsvParser } from '@coinventory/contract/csv';
import { expect } from 'vitest';
import type { Sql } from '../../src/db/types.js';
import { EXIT, executeAdminCommand } from '../../src/operator/index.js';

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
  const run = (...argv: string[]) => executeAdminCommand(argv, sql());
  const json = async (...argv: string[]) => {
    const output = await run(...argv, '--json');
    expect(output.exitCode, output.stderr).toBe(EXIT.ok);
    return JSON.parse(output.stdout);
  };
  return { run, json };
}
