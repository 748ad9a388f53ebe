import { contract } from '@coinventory/contract';
import { readById } from '../../request/gated-read.js';
import { read, readOne } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { CATEGORIES, categoryById, listCategories } from './store.js';

/** GET by id, read in the request's authentication statement (request/gated-read.ts). */
export const categoryRead = readById(contract.categories.get, CATEGORIES, categoryById);

/** GET /categories and GET /categories/{id}: the ids items take as categoryId. */
export const categoriesRoutes = routesFor(contract.categories, {
  list: read(({ db, organizationId }, { query }) => listCategories(db, organizationId, query)),
  get: readOne(categoryRead),
});
