import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The site renders its API reference from the built OpenAPI document; prove the JSON file is exported.
describe('the OpenAPI document the docs render', () => {
  it('resolves as @coinventory/contract/openapi.json and lists every operation', () => {
    const document = createRequire(import.meta.url)('@coinventory/contract/openapi.json');
    const operations = Object.values(document.paths as Record<string, object>).flatMap((ops) => Object.keys(ops));
    expect(operations).toHaveLength(11);
  });
});
