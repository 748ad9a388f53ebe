/** The workspace's item categories, read-only. */

export { CATEGORIES_IMPORT, categoriesByExternalId } from './import.js';
export { categoriesRoutes, categoryRead } from './routes.js';
export { CATEGORIES } from './store.js';
