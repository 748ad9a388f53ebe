import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as constants from '../src/constants.js';
import * as csv from '../src/csv.js';
import { uuid } from '../src/primitives.js';
import { contractRoutes } from '../src/routes.js';
import * as textRules from '../src/text-rules.js';

const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url);

const IMPORTS_ZOD = /from ['"]zod['"]|require\(['"]zod['"]\)/;

/** A built file and every file it imports relatively (tsup's shared chunks), transitively. */
function withImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(dist(file), 'utf8');
  for (const [, imported] of source.matchAll(/(?:from|import|require\()\s*['"]\.\/([^'"]+)['"]/g)) {
    if (imported) withImports(imported, seen);
  }
  return seen;
}

describe('zod-free entry points for small clients', () => {
  it('@coinventory/contract/routes lists every contract route with its method, path and scope', async () => {
    const { ROUTES } = (await import(dist('routes-manifest.js').href)) as {
      ROUTES: Record<string, { method: string; path: string; scope: string; operationId: string }>;
    };
    expect(ROUTES).toEqual(
      Object.fromEntries(
        contractRoutes.map(({ key, route }) => [
          key,
          {
            method: route.method,
            path: route.path,
            scope: route.metadata.scope,
            operationId: route.metadata.operationId,
          },
        ]),
      ),
    );
  });

  it('@coinventory/contract/csv carries the CSV encoding and the item columns without pulling in zod', async () => {
    const built = (await import(dist('csv.js').href)) as typeof csv;
    expect(built.ITEM_CSV_COLUMNS).toEqual(csv.ITEM_CSV_COLUMNS);
    expect(built.csvRecord(['a,b', null, 3])).toBe('"a,b",,3\r\n');
    expect(readFileSync(dist('csv.js'), 'utf8')).not.toMatch(/from ['"]zod['"]|require\(['"]zod['"]\)/);
  });

  it('@coinventory/contract/constants carries the constants without pulling in zod', async () => {
    const built = (await import(dist('constants.js').href)) as typeof constants;
    expect(built.LIMITS).toEqual(constants.LIMITS);
    expect(built.ERRORS).toEqual(constants.ERRORS);
    expect(built.RATE_LIMIT).toEqual(constants.RATE_LIMIT);
    expect(readFileSync(dist('constants.js'), 'utf8')).not.toMatch(/from ['"]zod['"]|require\(['"]zod['"]\)/);
    expect(readFileSync(dist('routes-manifest.js'), 'utf8')).not.toMatch(/zod/);
  });

  it('@coinventory/contract/text-rules carries the text rules without pulling in zod, in ESM and CJS', async () => {
    const esm = (await import(dist('text-rules.js').href)) as typeof textRules;
    const cjs = createRequire(import.meta.url)(dist('text-rules.cjs').pathname) as typeof textRules;
    for (const built of [esm, cjs]) {
      expect(Object.keys(built).sort()).toEqual(Object.keys(textRules).sort());
      expect(built.DATE_TIME_YEARS).toEqual(textRules.DATE_TIME_YEARS);
      expect(built.textProblem('abc', { max: 2 })).toEqual(textRules.textProblem('abc', { max: 2 }));
    }
    for (const file of [...withImports('text-rules.js'), 'text-rules.cjs']) {
      expect(readFileSync(dist(file), 'utf8'), file).not.toMatch(IMPORTS_ZOD);
    }
  });
});

describe('text rules', () => {
  it("UUID_PATTERN accepts exactly what the schemas' uuid accepts", () => {
    const samples = [
      '3f5a7dec-b331-4659-8f5a-474ef56754dd',
      '3F5A7DEC-B331-4659-8F5A-474EF56754DD',
      '00000000-0000-0000-0000-000000000000',
      '3f5a7dec-b331-4659-8f5a-474ef56754d',
      '3f5a7dec-b331-4659-8f5a-474ef56754ddd',
      '3f5a7decb3314659-8f5a-474ef56754dd',
      '{3f5a7dec-b331-4659-8f5a-474ef56754dd}',
      ' 3f5a7dec-b331-4659-8f5a-474ef56754dd',
      '3f5a7dec-b331-4659-8f5a-474ef56754dd\n',
      'gf5a7dec-b331-4659-8f5a-474ef56754dd',
      '',
    ];
    for (const sample of samples) {
      expect(textRules.UUID_PATTERN.test(sample), JSON.stringify(sample)).toBe(uuid.safeParse(sample).success);
    }
  });

  it('counts characters as code points and finds the first rule broken: length, then storability', () => {
    expect(textRules.characterLength('a𝔄é')).toBe(3);
    expect(textRules.textProblem('', { min: 1, max: 2 })).toEqual({
      kind: 'too_short',
      min: 1,
      length: 0,
      message: 'must be at least 1 character',
    });
    expect(textRules.textProblem('𝔄𝔄', { max: 2 })).toBeUndefined();
    expect(textRules.textProblem('a\u0000b', { max: 2 })).toEqual({
      kind: 'too_long',
      max: 2,
      length: 3,
      message: 'must be at most 2 characters',
    });
    const notStorable = { kind: 'not_storable', message: 'must not contain NUL characters or unpaired surrogates' };
    expect(textRules.textProblem('a\u0000', { max: 2 })).toEqual(notStorable);
    expect(textRules.textProblem('\uD800', { max: 2 })).toEqual(notStorable);
  });
});
