import { z } from 'zod';
import { uuid } from '../primitives.js';
import { listEnvelope } from './common.js';
import { listLimitQuery, pageQuery, strictObject } from './fields.js';

export const ZoneSchema = strictObject('A zone of a warehouse: the ids items take as `zoneId`.', {
  id: uuid.describe('Zone id.'),
  name: z.string().describe('Zone name.'),
});

export const WarehouseSchema = strictObject('A warehouse of the workspace, with its zones.', {
  id: uuid.describe('Warehouse id: the ids items take as `warehouseId`.'),
  name: z.string().describe('Warehouse name.'),
  isDefault: z
    .boolean()
    .describe('True for the one warehouse an item goes to when it is created without `warehouseId` and `zoneId`.'),
  zones: z
    .array(ZoneSchema)
    .describe("The warehouse's zones in order; an item given only the warehouse goes to the first."),
});

export const ListWarehousesQuerySchema = z.object({ page: pageQuery, limit: listLimitQuery }).strict();

export const WarehouseListSchema = listEnvelope(
  WarehouseSchema,
  'A page of warehouses: the default one first, then by name (byte order), then id.',
);
