import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as constants from '../src/constants.js';
import { contractRoutes } from '../src/routes.js';

const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url);

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

  it('@coinventory/contract/constants carries the constants without pulling in zod', async () => {
    const built = (await import(dist('constants.js').href)) as typeof constants;
    expect(built.LIMITS).toEqual(constants.LIMITS);
    expect(built.ERRORS).toEqual(constants.ERRORS);
    expect(built.RATE_LIMIT).toEqual(constants.RATE_LIMIT);
    expect(readFileSync(dist('constants.js'), 'utf8')).not.toMatch(/from ['"]zod['"]|require\(['"]zod['"]\)/);
    expect(readFileSync(dist('routes-manifest.js'), 'utf8')).not.toMatch(/zod/);
  });
});
