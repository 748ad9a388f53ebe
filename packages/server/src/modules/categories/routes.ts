import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { readWithAuthentication } from '../../request/gated-read.js';
import { categoryRead, findCategory, listCategories } from './store.js';

/** GET /categories and GET /categories/{id}: the ids items take as categoryId. */
export const categoriesRoutes = initServer().router(contract.categories, {
  list: inTenant(({ sql, organizationId }, { query }) => listCategories(sql, organizationId, query)),
  get: inTenant(async ({ sql, organizationId }, { params, res }) =>
    found(await readWithAuthentication(res, categoryRead, () => findCategory(sql, organizationId, params.id))),
  ),
});
