import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { read, readOne } from '../../request/pipeline.js';
import { listCategories, categoryRead } from './store.js';

/** GET /categories and GET /categories/{id}: the ids items take as categoryId. */
export const categoriesRoutes = initServer().router(contract.categories, {
  list: read(({ db, organizationId }, { query }) => listCategories(db, organizationId, query)),
  get: readOne(categoryRead),
});
