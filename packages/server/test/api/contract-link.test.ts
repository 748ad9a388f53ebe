import { ERRORS } from '@coinventory/contract';
import openApiDocument from '@coinventory/contract/openapi';
import { describe, expect, it } from 'vitest';

// The server serves the built OpenAPI document and the contract's error bodies; prove both resolve from here.
describe('@coinventory/contract as the server sees it', () => {
  it('provides the built OpenAPI document and the exact error messages', () => {
    expect(openApiDocument.openapi).toMatch(/^3\.1\./);
    expect(openApiDocument.servers[0]?.url).toMatch(/\/v1$/);
    expect(ERRORS.NOT_FOUND.message).toBe('Not found');
  });
});
