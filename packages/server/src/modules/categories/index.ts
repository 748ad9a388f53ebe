/** The workspace's item categories, read-only. */
export { categoriesRoutes } from './routes.js';
export { CATEGORIES, categoryRead } from './store.js';
