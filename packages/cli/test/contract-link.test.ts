import { ITEM_SORTS, ITEM_STATUSES, LIMITS } from '@coinventory/contract';
import { textProblem } from '@coinventory/contract/text-rules';
import { describe, expect, it } from 'vitest';

// The CLI's options come from the contract's constants; prove the built contract resolves from this package.
describe('@coinventory/contract as the CLI sees it', () => {
  it('provides the values `items list` offers as options', () => {
    expect(ITEM_STATUSES).toContain('in_stock');
    expect(ITEM_SORTS).toContain('value_desc');
    expect(LIMITS.listLimit).toMatchObject({ min: 1, max: 100, default: 20 });
  });

  it('provides the text rules the option parsers check values with', () => {
    expect(textProblem('x'.repeat(LIMITS.q.max + 1), LIMITS.q)?.message).toBe('must be at most 200 characters');
    expect(textProblem('x', LIMITS.q)).toBeUndefined();
  });
});
