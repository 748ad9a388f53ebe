/** The workspace's item categories, read-only. */

export { CATEGORIES_IMPORT, categoriesByExternalId } from './import.js';
export { categoriesRoutes } from './routes.js';
export { CATEGORIES, categoryRead } from './store.js';
