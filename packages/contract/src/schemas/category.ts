import { z } from 'zod';
import { uuid } from '../primitives.js';
import { listEnvelope } from './common.js';
import { listLimitQuery, pageQuery, strictObject } from './fields.js';

export const CategorySchema = strictObject("A category of the workspace's items: the ids items take as `categoryId`.", {
  id: uuid.describe('Category id.'),
  name: z.string().describe('Category name.'),
});

export const ListCategoriesQuerySchema = z.object({ page: pageQuery, limit: listLimitQuery }).strict();

export const CategoryListSchema = listEnvelope(CategorySchema, 'A page of categories, by name (byte order), then id.');
