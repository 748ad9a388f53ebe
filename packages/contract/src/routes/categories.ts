import { CategoryListSchema, CategorySchema, ListCategoriesQuerySchema } from '../schemas/category.js';
import { c, listAndGet } from './common.js';

/** The categories routes: read-only; their ids are what items take as `categoryId`. */
export const categories = c.router(
  listAndGet(
    'Categories',
    '/categories',
    {
      summary: 'List categories',
      description: "Lists the workspace's item categories, by name (byte order), then id.",
      operationId: 'listCategories',
      query: ListCategoriesQuerySchema,
      page: CategoryListSchema,
    },
    {
      summary: 'Get a category',
      description: 'Returns one category.',
      operationId: 'getCategory',
      entry: CategorySchema,
    },
  ),
);
