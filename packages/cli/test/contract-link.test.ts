import { ITEM_SORTS, ITEM_STATUSES, LIMITS } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';

// The CLI's options come from the contract's constants; prove the built contract resolves from this package.
describe('@coinventory/contract as the CLI sees it', () => {
  it('provides the values `items list` offers as options', () => {
    expect(ITEM_STATUSES).toContain('in_stock');
    expect(ITEM_SORTS).toContain('value_desc');
    expect(LIMITS.listLimit).toMatchObject({ min: 1, max: 100, default: 20 });
  });
});
