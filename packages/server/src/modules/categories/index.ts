/** The workspace's item categories, read-only. */
export { categoriesRoutes } from './routes.js';
export { CATEGORIES } from './store.js';
