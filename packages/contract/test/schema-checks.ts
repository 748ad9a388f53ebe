import { expect } from 'vitest';
import type { z } from 'zod';
import { contract } from '../src/contract.js';

// Checks the schema tests share, and the contract's routes under short names.

export type Schema = z.ZodTypeAny;
export const schemaOf = (value: unknown): Schema => value as Schema;
export const ok = (schema: Schema, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value).slice(0, 200)).toBe(true);
export const bad = (schema: Schema, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value).slice(0, 200)).toBe(false);
export const chars = (n: number) => 'x'.repeat(n);

export type TextBounds = { min?: number; max: number };

/** A field's length bound holds exactly: at the bound passes, one past it fails. */
export function lengthBound(schema: Schema, base: Record<string, unknown>, field: string, bounds: TextBounds) {
  ok(schema, { ...base, [field]: chars(bounds.max) });
  bad(schema, { ...base, [field]: chars(bounds.max + 1) });
  if (bounds.min !== undefined) {
    ok(schema, { ...base, [field]: chars(bounds.min) });
    bad(schema, { ...base, [field]: chars(bounds.min - 1) });
  }
}

/** A query integer: at each bound passes, one past fails, and non-integers fail. */
export function queryIntegerBound(schema: Schema, field: string, bounds: { min: number; max?: number }) {
  ok(schema, { [field]: String(bounds.min) });
  bad(schema, { [field]: String(bounds.min - 1) });
  if (bounds.max !== undefined) {
    ok(schema, { [field]: String(bounds.max) });
    bad(schema, { [field]: String(bounds.max + 1) });
  }
  for (const value of ['1.5', 'abc', '', '-1', '1e1', '0x10', ' 5', '5 ']) bad(schema, { [field]: value });
  // One issue per failing field, whatever made it fail.
  expect(schema.safeParse({ [field]: 'abc' }).error?.issues).toHaveLength(1);
}

export const routes = {
  me: contract.me,
  list: contract.items.list,
  create: contract.items.create,
  get: contract.items.get,
  update: contract.items.update,
  remove: contract.items.delete,
  valuations: contract.items.valuations,
  consignments: contract.consignments.list,
  consignment: contract.consignments.get,
  invoices: contract.invoices.list,
  invoice: contract.invoices.get,
};
